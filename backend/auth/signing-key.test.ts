import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrations.ts";
import { createSessionTokens, epochSeconds, type SessionIdentity } from "./session-tokens.ts";
import { loadSessionKey } from "./signing-key.ts";

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

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function open(dataDir: string | undefined): Promise<Db> {
  const db = await openDatabase({ kind: "pglite", dataDir });
  await migrateToLatest(db);
  return db;
}

describe("session signing key", () => {
  it("is generated once and survives a restart, so tokens signed before it stay valid", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "argus-key-"));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));

    const first = await open(dataDir);
    const token = await createSessionTokens(await loadSessionKey(session, first), session).mint(identity);
    await first.destroy();

    const second = await open(dataDir);
    cleanup.push(() => second.destroy());
    const tokens = createSessionTokens(await loadSessionKey(session, second), session);
    await expect(tokens.verify(token)).resolves.toMatchObject({ sub: "u" });
    expect(await second.selectFrom("signing_keys").select("kid").execute()).toHaveLength(1);
  });

  it("agrees on one key when two instances start on the same database", async () => {
    const db = await open(undefined);
    cleanup.push(() => db.destroy());
    const [a, b] = await Promise.all([loadSessionKey(session, db), loadSessionKey(session, db)]);
    const token = await createSessionTokens(a, session).mint(identity);
    await expect(createSessionTokens(b, session).verify(token)).resolves.toBeDefined();
  });

  it("uses SESSION_SECRET when set and stores no key", async () => {
    const db = await open(undefined);
    cleanup.push(() => db.destroy());
    const key = await loadSessionKey({ ...session, secret: "s".repeat(32) }, db);
    expect(key.alg).toBe("HS256");
    expect(await db.selectFrom("signing_keys").select("kid").execute()).toEqual([]);
  });
});
