import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { importJWK, type JWK, SignJWT } from "jose";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../../shared/contract/accounts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";
import { type Db, openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrations.ts";
import { SECRETS_KEY_FILE } from "../secrets/keys.ts";
import { createSecretBox, keyIdOf } from "../secrets/secret-box.ts";
import { ACCOUNT_COLUMNS } from "./account-rows.ts";
import {
  createSessionTokens,
  epochSeconds,
  generateSessionKeyPair,
  type SessionIdentity,
  sessionKeyFromJwks,
} from "./session-tokens.ts";
import { loadSessionKey, signingKeyContext } from "./signing-key.ts";

const session = { secret: undefined, issuer: "iss", audience: "aud", ttlSeconds: 3600 };
const identity: SessionIdentity = {
  sub: "u",
  sid: "s",
  orgId: "o",
  email: "e@example.com",
  name: "N",
  role: "owner",
  provider: "email",
  orgName: "O",
  auth_time: epochSeconds(),
};
const KEY = Buffer.alloc(32, 5);
const NEW_KEY = Buffer.alloc(32, 6);
const box = (key = KEY, previousKeys: Buffer[] = []) =>
  createSecretBox({ key, previousKeys, keyFile: undefined });

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function open(dataDir: string | undefined): Promise<Db> {
  const db = await openDatabase({ kind: "pglite", dataDir });
  await migrateToLatest(db);
  return db;
}

async function openInMemory(): Promise<Db> {
  const db = await open(undefined);
  cleanup.push(() => db.destroy());
  return db;
}

async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "argus-key-"));
  cleanup.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

const storedKey = (db: Db) =>
  db.selectFrom("signing_keys").select(["kid", "private_jwk"]).executeTakeFirstOrThrow();

describe("session signing key", () => {
  it("is generated once, stored sealed, and survives a restart, so tokens signed before it stay valid", async () => {
    const dataDir = await temporaryFolder();

    const first = await open(dataDir);
    const token = await createSessionTokens(await loadSessionKey(session, first, box()), session).mint(
      identity,
    );
    await first.destroy();

    const second = await open(dataDir);
    cleanup.push(() => second.destroy());
    const tokens = createSessionTokens(await loadSessionKey(session, second, box()), session);
    await expect(tokens.verify(token)).resolves.toMatchObject({ sub: "u" });
    const rows = await second.selectFrom("signing_keys").select(["kid", "private_jwk"]).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.private_jwk).toMatch(new RegExp(`^v1:${keyIdOf(KEY)}:`));
  });

  it("agrees on one key when two instances start on the same database", async () => {
    const db = await openInMemory();
    const [a, b] = await Promise.all([
      loadSessionKey(session, db, box()),
      loadSessionKey(session, db, box()),
    ]);
    const token = await createSessionTokens(a, session).mint(identity);
    await expect(createSessionTokens(b, session).verify(token)).resolves.toBeDefined();
  });

  it("uses SESSION_SECRET when set and stores no key", async () => {
    const db = await openInMemory();
    const key = await loadSessionKey({ ...session, secret: "s".repeat(32) }, db, box());
    expect(key.alg).toBe("HS256");
    expect(await db.selectFrom("signing_keys").select("kid").execute()).toEqual([]);
  });

  it("seals a key stored in plain text in place at start, keeping it, so its tokens stay valid", async () => {
    const db = await openInMemory();
    // As backends before sealing stored it.
    const plain = await generateSessionKeyPair();
    await db
      .insertInto("signing_keys")
      .values({
        kid: plain.kid,
        use: "session",
        algorithm: "ES256",
        public_jwk: JSON.stringify(plain.publicJwk),
        private_jwk: JSON.stringify(plain.privateJwk),
      })
      .execute();
    const before = await sessionKeyFromJwks(plain.kid, plain.privateJwk, plain.publicJwk);
    const token = await createSessionTokens(before, session).mint(identity);

    const loaded = await loadSessionKey(session, db, box());
    await expect(createSessionTokens(loaded, session).verify(token)).resolves.toMatchObject({ sub: "u" });
    const stored = await storedKey(db);
    expect(stored.kid).toBe(plain.kid);
    expect(stored.private_jwk).toMatch(/^v1:/);
    expect(stored.private_jwk).not.toContain(String(plain.privateJwk.d));
    expect(await box().open(stored.private_jwk, signingKeyContext(plain.kid))).toEqual({
      ok: true,
      value: JSON.stringify(plain.privateJwk),
    });
    // The next start opens the sealed value.
    const again = await loadSessionKey(session, db, box());
    await expect(createSessionTokens(again, session).verify(token)).resolves.toBeDefined();
  });

  it("seals it again with the current key after a rotation, so the previous key can be retired", async () => {
    const db = await openInMemory();
    const first = await loadSessionKey(session, db, box(KEY));
    const token = await createSessionTokens(first, session).mint(identity);

    await loadSessionKey(session, db, box(NEW_KEY, [KEY]));
    expect((await storedKey(db)).private_jwk).toMatch(new RegExp(`^v1:${keyIdOf(NEW_KEY)}:`));
    const retired = await loadSessionKey(session, db, box(NEW_KEY));
    await expect(createSessionTokens(retired, session).verify(token)).resolves.toBeDefined();
  });

  it("refuses to start when no configured key opens it, naming the key's id and never a key", async () => {
    const db = await openInMemory();
    await loadSessionKey(session, db, box(KEY));
    const sealed = (await storedKey(db)).private_jwk;

    const failure = loadSessionKey(session, db, box(NEW_KEY));
    await expect(failure).rejects.toThrow(
      new RegExp(`sealed with key ${keyIdOf(KEY)}.*SECRETS_ENCRYPTION_PREVIOUS_KEYS`),
    );
    await expect(failure).rejects.not.toThrow(sealed.split(":")[3] ?? sealed);
    // Nothing was replaced: with the right key it opens again.
    expect((await storedKey(db)).private_jwk).toBe(sealed);
  });
});

/** A backend as a deployment runs it: ES256 keys it keeps itself, its data in `dataDir`. */
const startOn = (dataDir: string) =>
  createBackend(
    loadConfig({ LOG_LEVEL: "silent", PUBLIC_ORIGIN: "http://127.0.0.1:3000", DATA_DIR: dataDir }),
  );

const bearer = (token: string) => `Bearer ${token}`;
const NO_KEY = "no key in the stored value";
type StoredKey = { kid: string; private_jwk: string };

/**
 * What someone who copied the database's files does: turn the stored private key into a JWK
 * (`readKey`) and sign a token for a live session read from the same files.
 */
async function forgeSession(dataDir: string, readKey: (stored: StoredKey) => Promise<JWK | undefined>) {
  const db = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
  try {
    const stored = await storedKey(db);
    const victim = await db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .innerJoin("organizations", "organizations.id", "users.org_id")
      .select(["sessions.id as sid", "sessions.provider", "sessions.auth_time", ...ACCOUNT_COLUMNS])
      .executeTakeFirstOrThrow();
    const jwk = await readKey(stored);
    if (!jwk) return NO_KEY;
    return await new SignJWT({
      sub: victim.userId,
      sid: victim.sid,
      orgId: victim.orgId,
      email: victim.email,
      name: victim.name,
      role: victim.role,
      provider: victim.provider,
      orgName: victim.orgName,
      auth_time: epochSeconds(victim.auth_time),
    })
      .setProtectedHeader({ alg: "ES256", kid: stored.kid, typ: "JWT" })
      .setIssuer(SESSION_ISSUER_DEFAULT)
      .setAudience(SESSION_AUDIENCE_DEFAULT)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(await importJWK(jwk, "ES256"));
  } finally {
    await db.destroy();
  }
}

/** The status the API answers a token with, on a backend started again on `dataDir`. */
async function apiAnswers(dataDir: string, token: string): Promise<number> {
  const backend = await startOn(dataDir);
  cleanup.push(() => backend.close());
  return (await request(backend.app).get(API_PATHS.subscription).set("Authorization", bearer(token))).status;
}

/** Each test starts a backend on a new PGlite folder twice: seconds each on a busy machine. */
const TWO_STARTS_MS = 60_000;

describe("the stored signing key, to someone holding a copy of the database", () => {
  /** A data directory whose database holds a live session. */
  async function dataDirWithSession(): Promise<string> {
    const dataDir = await temporaryFolder();
    const backend = await startOn(dataDir);
    try {
      const { token } = await signedInAccount(backend, "victim");
      const own = await request(backend.app).get(API_PATHS.subscription).set("Authorization", bearer(token));
      expect(own.status).toBe(200);
    } finally {
      await backend.close();
    }
    return dataDir;
  }

  it(
    "signs no session the API accepts: the stored value is sealed",
    async () => {
      const dataDir = await dataDirWithSession();
      const asStored = async ({ private_jwk }: StoredKey) => {
        try {
          return JSON.parse(private_jwk) as JWK;
        } catch {
          return undefined;
        }
      };
      const forged = await forgeSession(dataDir, asStored);
      // Before sealing, this was the API's 200 to the forged session.
      expect(forged === NO_KEY ? forged : await apiAnswers(dataDir, forged)).toBe(NO_KEY);
    },
    TWO_STARTS_MS,
  );

  it(
    "opens with the data directory's generated key file: sealing does not protect the whole data directory",
    async () => {
      const dataDir = await dataDirWithSession();
      const fromKeyFile = createSecretBox({
        key: undefined,
        previousKeys: [],
        keyFile: path.join(dataDir, SECRETS_KEY_FILE),
      });
      const forged = await forgeSession(dataDir, async (stored) => {
        const opened = await fromKeyFile.open(stored.private_jwk, signingKeyContext(stored.kid));
        return opened.ok ? (JSON.parse(opened.value) as JWK) : undefined;
      });
      expect(forged).not.toBe(NO_KEY);
      expect(await apiAnswers(dataDir, forged)).toBe(200);
    },
    TWO_STARTS_MS,
  );
});
