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
/** Loaded with the first review page, never with the gateway (client/features/reviews/rendered-reviews.server.ts). */
const ON_FIRST_REVIEW_PAGE = [
  "unified",
  "remark-parse",
  "remark-gfm",
  "remark-rehype",
  "rehype-sanitize",
  "rehype-stringify",
];

/** What loading the server build loads: its entry and the chunks it imports statically, transitively. */
function packagesLoadedAtStart(): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(
      /(?:^|[;\n}])\s*import\s*(?:[^"';]*?\s*from\s*)?"([^"]+)"/g,
    )) {
      const specifier = match[1] ?? "";
      if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(path.join(SERVER_BUILD, "index.js"));
  return packages;
}

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

  it("loads the Markdown renderer's libraries with the first review page, not at start", () => {
    const atStart = packagesLoadedAtStart();
    expect(atStart).toContain("react-dom/server");
    expect([...atStart].filter((specifier) => ON_FIRST_REVIEW_PAGE.includes(specifier))).toEqual([]);
    // Still in the build: a review page imports them when first rendered.
    expect([...packagesImported()]).toEqual(expect.arrayContaining(ON_FIRST_REVIEW_PAGE));
  });
});
