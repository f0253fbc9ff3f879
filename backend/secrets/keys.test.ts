import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { currentSecretsKey, SECRETS_KEY_FILE } from "./keys.ts";
import { createSecretBox } from "./secret-box.ts";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function keyFileIn() {
  dir = await mkdtemp(path.join(tmpdir(), "argus-secrets-"));
  return path.join(dir, "data", SECRETS_KEY_FILE);
}

describe("the secrets key", () => {
  it("is the configured key when there is one", async () => {
    const key = Buffer.alloc(32, 3);
    expect(await currentSecretsKey({ key, previousKeys: [], keyFile: "/nonexistent/key" })).toBe(key);
  });

  it("without one, is generated into the data directory (mode 0600) and read back after a restart", async () => {
    const keyFile = await keyFileIn();
    const config = { key: undefined, previousKeys: [], keyFile };
    const sealed = await createSecretBox(config).seal("sk-survives", "org-1");
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(keyFile, "utf8")).trim(), "base64")).toHaveLength(32);
    // A new process: a new box on the same file opens what the first one sealed.
    expect(await createSecretBox(config).open(sealed, "org-1")).toEqual({ ok: true, value: "sk-survives" });
  });

  it("with the database in memory, is a new key per process", async () => {
    const config = { key: undefined, previousKeys: [], keyFile: undefined };
    const first = await currentSecretsKey(config);
    expect(first).toHaveLength(32);
    expect((await currentSecretsKey(config)).equals(first)).toBe(false);
  });

  it("refuses a key file that does not hold a key, without repeating its content", async () => {
    const keyFile = await keyFileIn();
    await currentSecretsKey({ key: undefined, previousKeys: [], keyFile });
    await writeFile(keyFile, "not-a-key-but-maybe-a-secret");
    const failure = currentSecretsKey({ key: undefined, previousKeys: [], keyFile });
    await expect(failure).rejects.toThrow(/must be 32 random bytes in base64/);
    await expect(failure).rejects.not.toThrow(/maybe-a-secret/);
  });
});
