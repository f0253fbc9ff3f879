/**
 * The key stored secrets are encrypted with (docs/security.md#secrets-at-rest). SECRETS_ENCRYPTION_KEY
 * when set, which production outside local mode requires (config.ts). Otherwise, so the product
 * starts with nothing configured: a key generated on first use and kept in the data directory
 * (mode 0600), so a restart still decrypts, or, with the database in memory, one for the process.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

export const SECRETS_KEY_BYTES = 32;
/** The generated key's file, in DATA_DIR. */
export const SECRETS_KEY_FILE = "secrets-encryption.key";

const KEY_FORMAT = `must be ${SECRETS_KEY_BYTES} random bytes in base64 (openssl rand -base64 ${SECRETS_KEY_BYTES})`;

export const secretsKeySchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, KEY_FORMAT)
  .refine((value) => Buffer.from(value, "base64").length === SECRETS_KEY_BYTES, KEY_FORMAT)
  .transform((value) => Buffer.from(value, "base64"));

export interface SecretsConfig {
  /** SECRETS_ENCRYPTION_KEY: new secrets are sealed with it. */
  key: Buffer | undefined;
  /** SECRETS_ENCRYPTION_PREVIOUS_KEYS: keys rotated away that stored secrets may still be sealed with. */
  previousKeys: Buffer[];
  /** Where the generated key is kept when no key is configured; undefined: DATA_DIR is in memory. */
  keyFile: string | undefined;
}

/** The key new secrets are sealed with. */
export async function currentSecretsKey(config: SecretsConfig): Promise<Buffer> {
  if (config.key) return config.key;
  if (!config.keyFile) return randomBytes(SECRETS_KEY_BYTES);
  return (await readKeyFile(config.keyFile)) ?? (await createKeyFile(config.keyFile));
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const parsed = secretsKeySchema.safeParse(text);
  if (!parsed.success)
    throw new Error(`${file} ${KEY_FORMAT}; set SECRETS_ENCRYPTION_KEY or remove the file`);
  return parsed.data;
}

async function createKeyFile(file: string): Promise<Buffer> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(SECRETS_KEY_BYTES);
  try {
    // `wx`: of two processes starting on one data directory, the second reads the first one's key.
    await writeFile(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const written = await readKeyFile(file);
    if (!written) throw error;
    return written;
  }
}
