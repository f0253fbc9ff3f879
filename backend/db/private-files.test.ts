import { chmod, lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { notPrivate, permissionsOf } from "../../tests/support/file-modes.ts";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";
import { SECRETS_KEY_FILE } from "../secrets/keys.ts";

/** Each test starts a backend on a new PGlite folder, twice for the second: seconds each on a busy machine. */
const STARTS_A_DATABASE_MS = 60_000;

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The backend as a deployment without configured keys runs it, its data in `dataDir`. */
async function startOn(dataDir: string): Promise<Backend> {
  return createBackend(
    loadConfig({ LOG_LEVEL: "silent", PUBLIC_ORIGIN: "http://127.0.0.1:3000", DATA_DIR: dataDir }),
  );
}

async function freshDataDir(): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), "argus-data-"));
  cleanup.push(() => rm(parent, { recursive: true, force: true }));
  return path.join(parent, "data");
}

describe("the data directory", () => {
  it(
    "is created 0700, with PGlite's files and the generated key 0600, folders 0700",
    async () => {
      const dataDir = await freshDataDir();
      const backend = await startOn(dataDir);
      cleanup.push(() => backend.close());
      expect(permissionsOf((await lstat(dataDir)).mode)).toBe("700");
      expect(permissionsOf((await lstat(path.join(dataDir, SECRETS_KEY_FILE))).mode)).toBe("600");
      expect((await readdir(path.join(dataDir, "pglite"), { recursive: true })).length).toBeGreaterThan(100);
      expect(await notPrivate(dataDir)).toEqual([]);
    },
    STARTS_A_DATABASE_MS,
  );

  it(
    "is made private at start when an earlier version left it open",
    async () => {
      const dataDir = await freshDataDir();
      await (await startOn(dataDir)).close();
      // As before: the folder 0755, PGlite's folders 0755 and files 0666.
      await chmod(dataDir, 0o755);
      for (const name of await readdir(path.join(dataDir, "pglite"), { recursive: true })) {
        const entry = path.join(dataDir, "pglite", name);
        await chmod(entry, (await lstat(entry)).isDirectory() ? 0o755 : 0o666);
      }
      expect(await notPrivate(dataDir)).not.toEqual([]);

      const backend = await startOn(dataDir);
      cleanup.push(() => backend.close());
      expect(await notPrivate(dataDir)).toEqual([]);
    },
    STARTS_A_DATABASE_MS,
  );
});
