/**
 * The gateway holds only the icons and UI primitives its pages use: the libraries that ship
 * thousands of them are bundled into the server build (vite.config.ts, `ssr.noExternal`), never
 * imported whole from node_modules at run time, where they cost the gateway tens of megabytes
 * (docs/performance.md).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "../../scripts/lib/build.ts";

const SERVER_BUILD = path.resolve(import.meta.dirname, "../../build/server");
const BUNDLED = ["lucide-react", "radix-ui", "@radix-ui", "simple-icons"];

/** The bare specifiers the server build leaves to Node: static imports and dynamic ones. */
function packagesImported(): Set<string> {
  const files = [
    path.join(SERVER_BUILD, "index.js"),
    ...readdirSync(path.join(SERVER_BUILD, "assets"))
      .filter((name) => name.endsWith(".js"))
      .map((name) => path.join(SERVER_BUILD, "assets", name)),
  ];
  const specifiers = new Set<string>();
  for (const file of files)
    for (const match of readFileSync(file, "utf8").matchAll(/(?:from\s*|import\s*\(\s*)"([^".][^"]*)"/g))
      if (match[1]) specifiers.add(match[1]);
  return specifiers;
}

beforeAll(() => {
  ensureBuild();
}, 300_000);

describe("the server build", () => {
  it("bundles the icon and UI-primitive libraries instead of importing them whole", () => {
    const imported = [...packagesImported()];
    expect(imported).toContain("react-dom/server");
    expect(imported.filter((specifier) => BUNDLED.some((name) => specifier.startsWith(name)))).toEqual([]);
  });
});
