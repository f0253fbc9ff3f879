import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { PRECOMPRESS_MIN_BYTES, precompressDirectory } from "./precompressed-assets.ts";

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("precompressDirectory", () => {
  it("writes a smaller Brotli and gzip twin that decode to each script, stylesheet and SVG worth it", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "argus-precompress-"));
    await mkdir(path.join(dir, "nested"));
    const script = Buffer.from("export const answer = 42;\n".repeat(200));
    const files = {
      "app.js": script,
      "app.css": Buffer.from(".a { color: red }\n".repeat(200)),
      "nested/icon.svg": Buffer.from(`<svg>${"<path d='M0 0'/>".repeat(100)}</svg>`),
      // Too small to be worth it, not a kind the gateway compresses, and bytes that do not compress.
      "tiny.js": Buffer.from("export {};"),
      "photo.png": randomBytes(4096),
      "noise.js": randomBytes(4096),
    };
    for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(dir, name), bytes);

    expect(await precompressDirectory(dir)).toBe(3);

    for (const name of ["app.js", "app.css", "nested/icon.svg"]) {
      const original = files[name as keyof typeof files];
      const br = await readFile(path.join(dir, `${name}.br`));
      const gz = await readFile(path.join(dir, `${name}.gz`));
      expect(brotliDecompressSync(br).equals(original), name).toBe(true);
      expect(gunzipSync(gz).equals(original), name).toBe(true);
      expect(br.length).toBeLessThan(original.length);
    }
    const written = await readdir(dir);
    for (const name of ["tiny.js", "photo.png", "noise.js"]) {
      expect(written).not.toContain(`${name}.br`);
      expect(written).not.toContain(`${name}.gz`);
    }
    expect(files["tiny.js"].length).toBeLessThan(PRECOMPRESS_MIN_BYTES);
  });
});
