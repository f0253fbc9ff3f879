/**
 * Where the session signing key comes from: SESSION_SECRET when set, else an ES256 key pair that
 * the backend generates on first start and keeps in the database, so restarts (and every replica
 * sharing the database) keep existing sessions valid.
 */
import type { JWK } from "jose";
import type { BackendConfig } from "../config.ts";
import type { Db } from "../db/database.ts";
import {
  generateSessionKeyPair,
  type SessionKey,
  sessionKeyFromJwks,
  sessionKeyFromSecret,
} from "./session-tokens.ts";

const SESSION_KEY_USE = "session";

export async function loadSessionKey(session: BackendConfig["session"], db: Db): Promise<SessionKey> {
  if (session.secret) return sessionKeyFromSecret(session.secret);

  const stored = await findStoredKey(db);
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
      private_jwk: JSON.stringify(generated.privateJwk),
    })
    .onConflict((oc) => oc.column("use").doNothing())
    .execute();
  const kept = await findStoredKey(db);
  if (!kept) throw new Error("The session signing key could not be stored");
  return kept;
}

async function findStoredKey(db: Db): Promise<SessionKey | undefined> {
  const row = await db
    .selectFrom("signing_keys")
    .select(["kid", "private_jwk", "public_jwk"])
    .where("use", "=", SESSION_KEY_USE)
    .executeTakeFirst();
  if (!row) return undefined;
  return sessionKeyFromJwks(row.kid, JSON.parse(row.private_jwk) as JWK, JSON.parse(row.public_jwk) as JWK);
}
