/**
 * Where the session signing key comes from: SESSION_SECRET when set, else an ES256 key pair that
 * the backend generates on first start and keeps in the database, so restarts (and every replica
 * sharing the database) keep existing sessions valid. The private key is stored sealed with the
 * secret box (docs/security.md#secrets-at-rest): a copy of the database alone signs no session.
 */
import type { JWK } from "jose";
import type { BackendConfig } from "../config.ts";
import type { Db } from "../db/database.ts";
import { type SecretBox, sealedKeyId } from "../secrets/secret-box.ts";
import {
  generateSessionKeyPair,
  type SessionKey,
  sessionKeyFromJwks,
  sessionKeyFromSecret,
} from "./session-tokens.ts";

const SESSION_KEY_USE = "session";

/** What the private key is authenticated with: a sealed key copied to another row does not open there. */
export const signingKeyContext = (kid: string) => `signing_keys.private_jwk:${kid}`;

interface StoredKey {
  kid: string;
  private_jwk: string;
  public_jwk: string;
}

export async function loadSessionKey(
  session: BackendConfig["session"],
  db: Db,
  secrets: SecretBox,
): Promise<SessionKey> {
  if (session.secret) return sessionKeyFromSecret(session.secret);

  const stored = await findStoredKey(db, secrets);
  if (stored) return stored;
  const generated = await generateSessionKeyPair();
  // Two replicas starting at once may both generate; the unique `use` keeps the first one.
  await db
    .insertInto("signing_keys")
    .values({
      kid: generated.kid,
      use: SESSION_KEY_USE,
      algorithm: "ES256",
      public_jwk: JSON.stringify(generated.publicJwk),
      private_jwk: await secrets.seal(JSON.stringify(generated.privateJwk), signingKeyContext(generated.kid)),
    })
    .onConflict((oc) => oc.column("use").doNothing())
    .execute();
  const kept = await findStoredKey(db, secrets);
  if (!kept) throw new Error("The session signing key could not be stored");
  return kept;
}

async function findStoredKey(db: Db, secrets: SecretBox): Promise<SessionKey | undefined> {
  const row = await db
    .selectFrom("signing_keys")
    .select(["kid", "private_jwk", "public_jwk"])
    .where("use", "=", SESSION_KEY_USE)
    .executeTakeFirst();
  if (!row) return undefined;
  const privateJwk = await openPrivateKey(db, secrets, row);
  return sessionKeyFromJwks(row.kid, JSON.parse(privateJwk) as JWK, JSON.parse(row.public_jwk) as JWK);
}

/**
 * The private JWK as text. A key stored in plain text (before keys were sealed) or sealed with a
 * key rotated away is sealed again with the current key here, at start: a migration cannot, since
 * the key is configuration, not data.
 */
async function openPrivateKey(db: Db, secrets: SecretBox, row: StoredKey): Promise<string> {
  const context = signingKeyContext(row.kid);
  const plain = row.private_jwk.startsWith("{");
  let privateJwk = row.private_jwk;
  if (!plain) {
    const opened = await secrets.open(row.private_jwk, context);
    if (!opened.ok) {
      throw new Error(
        `The session signing key ${row.kid} cannot be decrypted: it is sealed with key ${opened.keyId ?? "(unreadable)"}, which neither SECRETS_ENCRYPTION_KEY nor SECRETS_ENCRYPTION_PREVIOUS_KEYS holds (${opened.reason}). Configure that key again, or delete the signing_keys row to start with a new signing key, which signs every user out.`,
      );
    }
    privateJwk = opened.value;
  }
  const resealed = await secrets.seal(privateJwk, context);
  if (plain || sealedKeyId(resealed) !== sealedKeyId(row.private_jwk)) {
    // Conditional: of two replicas starting at once, the second changes nothing.
    await db
      .updateTable("signing_keys")
      .set({ private_jwk: resealed })
      .where("kid", "=", row.kid)
      .where("private_jwk", "=", row.private_jwk)
      .execute();
  }
  return privateJwk;
}
