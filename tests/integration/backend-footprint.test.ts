/**
 * What the backend loads to answer pages: Biome's WebAssembly linter (some 130 MB) and the model
 * tokenizer's tables (some 40 MB) wait for the first review that needs them, so a backend that only
 * serves the API, or reviews no JavaScript, never holds them (docs/performance.md, "Backend memory").
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const HEAVY = /@biomejs\/wasm-nodejs|gpt-tokenizer/;

/** The modules a fresh Node process loads for `code`, as its module hooks see them (import and require). */
function modulesLoadedBy(code: string): string[] {
  const script = `
    import { registerHooks } from "node:module";
    const loaded = [];
    registerHooks({ resolve(specifier, context, next) { const result = next(specifier, context); loaded.push(result.url); return result; } });
    ${code}
    console.log(JSON.stringify(loaded));`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "[]");
}

describe("the backend's start", () => {
  it("loads neither the linter nor the tokenizer", () => {
    const loaded = modulesLoadedBy(`await import("./backend/app.ts");`);
    expect(loaded.some((url) => url.endsWith("/backend/app.ts"))).toBe(true);
    expect(loaded.filter((url) => HEAVY.test(url))).toEqual([]);
  });

  it("loads each on its first use", () => {
    const loaded = modulesLoadedBy(`
      const { loadBiome } = await import("./backend/review/reviewers/builtin/biome.ts");
      const { tokensOf } = await import("./backend/review/reviewers/ai/pack.ts");
      loadBiome();
      if (!(tokensOf("two words") > 0)) throw new Error("no tokens counted");`);
    expect(loaded.some((url) => url.includes("@biomejs/wasm-nodejs"))).toBe(true);
    expect(loaded.some((url) => url.includes("gpt-tokenizer"))).toBe(true);
  });
});
