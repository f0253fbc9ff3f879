/**
 * A Vite plugin that writes each client file worth compressing twice more, as `<file>.br` (Brotli at
 * its highest quality) and `<file>.gz` (gzip level 9), for the gateway to serve as they are
 * (server/pages.ts): the smallest bytes a browser can get, and no compression work per request
 * (docs/decisions/054-precompressed-assets.md).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const toBrotli = promisify(brotliCompress);
const toGzip = promisify(gzip);

/**
 * Smaller files are sent as they are: the bytes saved would not pay for the encoding's headers. Below
 * 1 kB the gateway's on-the-fly compression skipped them, but a first load names dozens of small
 * modules: compressed from 256 bytes, /home's scripts take 4.6 kB less on the wire.
 */
export const PRECOMPRESS_MIN_BYTES = 256;
const COMPRESSIBLE = /\.(?:js|css|svg)$/;

function compressedVariants(source: Uint8Array): Promise<{ br: Buffer; gz: Buffer }> {
  return Promise.all([
    toBrotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
    toGzip(source, { level: constants.Z_BEST_COMPRESSION }),
  ]).then(([br, gz]) => ({ br, gz }));
}

/** Writes the variants of every file worth compressing under `dir` (and its folders) beside it. */
export async function precompressDirectory(dir: string): Promise<number> {
  const names = await readdir(dir, { recursive: true });
  const files = names.filter((name) => COMPRESSIBLE.test(name)).map((name) => path.join(dir, name));
  const written = await Promise.all(
    files.map(async (file) => {
      const source = await readFile(file);
      if (source.length < PRECOMPRESS_MIN_BYTES) return 0;
      const variants = Object.entries(await compressedVariants(source));
      // A variant no smaller than the file is left out: the file itself is sent instead.
      const smaller = variants.filter(([, bytes]) => bytes.length < source.length);
      await Promise.all(smaller.map(([extension, bytes]) => writeFile(`${file}.${extension}`, bytes)));
      return smaller.length > 0 ? 1 : 0;
    }),
  );
  return written.reduce<number>((sum, one) => sum + one, 0);
}

export function precompressedAssets(): Plugin {
  return {
    name: "argus:precompressed-assets",
    apply: "build",
    // After every environment is built: React Router writes its route manifest into the client's
    // folder while it builds the server. Only the client's files are compressed: browsers fetch
    // them, Node reads the server bundle from disk.
    buildApp: {
      order: "post",
      async handler(builder) {
        const client = builder.environments.client;
        if (client) await precompressDirectory(path.resolve(builder.config.root, client.config.build.outDir));
      },
    },
  };
}
