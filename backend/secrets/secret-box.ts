/**
 * Secrets at rest (docs/security.md#secrets-at-rest): AES-256-GCM with node:crypto, a fresh 96-bit
 * IV per seal. A sealed value is `v1:<key id>:<iv>:<ciphertext and tag>` (base64), so a value names
 * the key that sealed it and keys can rotate: new values are sealed with the current key, old ones
 * open with any previous key still configured. `context` (the owner, say) is authenticated too, so
 * a value copied to another row does not open there.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { currentSecretsKey, type SecretsConfig } from "./keys.ts";

const FORMAT = "v1";
const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Names a key without revealing it: the first 4 bytes of its SHA-256, in hex. */
export const keyIdOf = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

/** Whether a stored value has the form of a sealed one (a value stored before sealing does not). */
export const isSealed = (value: string) => value.startsWith(`${FORMAT}:`) && value.split(":").length === 4;

/** The id of the key that sealed `sealed`; undefined when it is not a sealed value. */
export function sealedKeyId(sealed: string): string | undefined {
  const [format, keyId] = sealed.split(":");
  return format === FORMAT && keyId ? keyId : undefined;
}

export type Opened =
  | { ok: true; value: string }
  /** `unknown-key`: sealed with a key no longer configured; `corrupt`: not a sealed value, or altered. */
  | { ok: false; reason: "unknown-key" | "corrupt"; keyId: string | undefined };

export interface SecretBox {
  seal(plain: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<Opened>;
}

/** A secret box on `config`'s keys; the current key is resolved on first use (keys.ts). */
export function createSecretBox(config: SecretsConfig): SecretBox {
  let keys: Promise<{ current: Buffer; byId: Map<string, Buffer> }> | undefined;
  const loadKeys = () => {
    keys ??= currentSecretsKey(config).then(
      (current) => ({
        current,
        byId: new Map([...config.previousKeys, current].map((key) => [keyIdOf(key), key])),
      }),
      (error: unknown) => {
        keys = undefined;
        throw error;
      },
    );
    return keys;
  };

  return {
    async seal(plain, context) {
      const { current } = await loadKeys();
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, current, iv).setAAD(Buffer.from(context, "utf8"));
      const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return [FORMAT, keyIdOf(current), iv.toString("base64"), sealed.toString("base64")].join(":");
    },

    async open(sealed, context) {
      const [format, keyId, iv, body, ...rest] = sealed.split(":");
      if (format !== FORMAT || !keyId || !iv || !body || rest.length > 0) {
        return { ok: false, reason: "corrupt", keyId: undefined };
      }
      const key = (await loadKeys()).byId.get(keyId);
      if (!key) return { ok: false, reason: "unknown-key", keyId };
      const bytes = Buffer.from(body, "base64");
      if (bytes.length < TAG_BYTES) return { ok: false, reason: "corrupt", keyId };
      try {
        const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, "base64"))
          .setAAD(Buffer.from(context, "utf8"))
          .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]);
        return { ok: true, value: plain.toString("utf8") };
      } catch {
        return { ok: false, reason: "corrupt", keyId };
      }
    },
  };
}
