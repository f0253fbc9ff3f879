import { chmod, lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";
import { SECRETS_KEY_FILE } from "../secrets/keys.ts";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function startOn(dataDir: string): Promise<Backend> {
  const backend = await createBackend(
    loadConfig({ LOG_LEVEL: "silent", PUBLIC_ORIGIN: "http://127.0.0.1:3000", DATA_DIR: dataDir }),
  );
  cleanup.push(() => backend.close());
  return backend;
}

async function freshDataDir(): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), "argus-data-"));
  cleanup.push(() => rm(parent, { recursive: true, force: true }));
  return path.join(parent, "data");
}

/** Each test starts a backend on a new PGlite folder, twice for the second: seconds each on a busy machine. */
const STARTS_A_DATABASE_MS = 60_000;

const octal = (mode: number) => (mode & 0o777).toString(8);

/** Every folder and file from `root` down that is not 0700 or 0600, with its mode. */
async function notPrivate(root: string): Promise<string[]> {
  const entries = [root, ...(await readdir(root, { recursive: true })).map((name) => path.join(root, name))];
  const loose: string[] = [];
  for (const entry of entries) {
    const stats = await lstat(entry);
    const expected = stats.isDirectory() ? 0o700 : 0o600;
    if ((stats.mode & 0o777) !== expected)
      loose.push(`${path.relative(root, entry) || "."} ${octal(stats.mode)}`);
  }
  return loose;
}

describe("the data directory", () => {
  it(
    "is created 0700, with PGlite's files and the generated key 0600, folders 0700",
    async () => {
      const dataDir = await freshDataDir();
      await startOn(dataDir);
      expect(octal((await lstat(dataDir)).mode)).toBe("700");
      expect(octal((await lstat(path.join(dataDir, SECRETS_KEY_FILE))).mode)).toBe("600");
      const files = await readdir(path.join(dataDir, "pglite"), { recursive: true });
      expect(files.length).toBeGreaterThan(100);
      expect(await notPrivate(dataDir)).toEqual([]);
    },
    STARTS_A_DATABASE_MS,
  );

  it(
    "is made private at start when an earlier version left it open",
    async () => {
      const dataDir = await freshDataDir();
      await (await startOn(dataDir)).close();
      cleanup.pop();
      // As before: the folder 0755, PGlite's files 0666.
      await chmod(dataDir, 0o755);
      for (const name of await readdir(path.join(dataDir, "pglite"), { recursive: true })) {
        const entry = path.join(dataDir, "pglite", name);
        await chmod(entry, (await lstat(entry)).isDirectory() ? 0o755 : 0o666);
      }
      expect(await notPrivate(dataDir)).not.toEqual([]);

      await startOn(dataDir);
      expect(await notPrivate(dataDir)).toEqual([]);
    },
    STARTS_A_DATABASE_MS,
  );
});
