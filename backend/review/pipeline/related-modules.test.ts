import { describe, expect, it } from "vitest";
import { addedFile } from "../../../tests/support/review-files.ts";
import { fetchRelatedModules, RELATED_FETCHES_MAX, RELATED_MODULES_MAX } from "./related-modules.ts";

const HEAD = "c".repeat(40);

/** A code host that answers from `files` at HEAD and records every path it was asked for. */
function hostWith(files: Record<string, string>, fail: ReadonlySet<string> = new Set()) {
  const asked: string[] = [];
  return {
    asked,
    async fileContent(path: string, sha: string) {
      asked.push(path);
      if (fail.has(path)) throw new Error("502 Bad Gateway");
      return sha === HEAD ? (files[path] ?? null) : null;
    },
  };
}

const withContent = (path: string, lines: string[]) => {
  const file = addedFile(path, lines);
  file.content = `${lines.join("\n")}\n`;
  return file;
};

describe("fetchRelatedModules", () => {
  it("tries a module's paths in order at head, and keeps the first that exists", async () => {
    const host = hostWith({ "src/roles.js": "export async function hasRole() {}\n" });
    const route = withContent("src/route.ts", ['import { hasRole } from "./roles";', "if (hasRole()) go();"]);
    const fetched = await fetchRelatedModules(host, HEAD, [route]);
    expect(host.asked).toEqual(["src/roles.ts", "src/roles.tsx", "src/roles.js"]);
    expect([...fetched.modules.keys()]).toEqual(["src/roles.js"]);
    expect(fetched).toMatchObject({ fetches: 3, failed: 0 });
  });

  it("takes a module the pull request changed from the changed file, without a call", async () => {
    const host = hostWith({});
    const roles = withContent("src/roles.ts", ["export async function hasRole() {}"]);
    const route = withContent("src/route.ts", ['import { hasRole } from "./roles";', "if (hasRole()) go();"]);
    const fetched = await fetchRelatedModules(host, HEAD, [route, roles]);
    expect(host.asked).toEqual([]);
    expect(fetched.modules.get("src/roles.ts")).toContain("async function hasRole");
  });

  it("stops at its bounds on a pull request that imports many modules", async () => {
    const host = hostWith({});
    const imports = Array.from({ length: 30 }, (_, index) => `import { f${index} } from "./m${index}";`);
    const calls = Array.from({ length: 30 }, (_, index) => `f${index}();`);
    const fetched = await fetchRelatedModules(host, HEAD, [
      withContent("src/many.ts", [...imports, ...calls]),
    ]);
    expect(fetched.fetches).toBe(RELATED_FETCHES_MAX);
    expect(host.asked).toHaveLength(RELATED_FETCHES_MAX);
    expect(new Set(host.asked.map((path) => path.replace(/(\/index)?\.\w+$/, ""))).size).toBeLessThanOrEqual(
      RELATED_MODULES_MAX,
    );
  });

  it("gives up on a module the code host fails to answer for, and keeps the others", async () => {
    const host = hostWith({ "src/b.ts": "export async function b() {}\n" }, new Set(["src/a.ts"]));
    const route = withContent("src/route.ts", [
      'import { a } from "./a.ts";',
      'import { b } from "./b.ts";',
      "a(); b();",
    ]);
    const fetched = await fetchRelatedModules(host, HEAD, [route]);
    expect(fetched.failed).toBe(1);
    expect([...fetched.modules.keys()]).toEqual(["src/b.ts"]);
  });
});
