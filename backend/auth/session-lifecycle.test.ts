/** A session's life on each database the backend runs on, without Firebase (routes/auth.test.ts has that). */
import { decodeJwt } from "jose";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { API_PATHS } from "../../shared/contract.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";
import { signInAccount } from "./accounts.ts";
import { epochSeconds } from "./session-tokens.ts";
import { sessionIdentity, startSession } from "./sessions.ts";

const opened: Backend[] = [];
let database: FreshDatabase | undefined;
afterEach(async () => {
  for (const backend of opened.splice(0)) await backend.close();
  await database?.drop();
  database = undefined;
});

async function open(env: Record<string, string>): Promise<Backend> {
  const backend = await createBackend(loadConfig({ LOG_LEVEL: "silent", ...env }));
  opened.push(backend);
  return backend;
}

async function signIn(backend: Backend): Promise<string> {
  const account = await signInAccount(backend.db, {
    firebaseUid: "uid-lifecycle",
    email: "lifecycle@example.com",
    emailVerified: true,
    name: "Life Cycle",
    avatarUrl: null,
    provider: "email",
  });
  const authTime = epochSeconds();
  const sid = await startSession(backend.db, { userId: account.user.id, provider: "email", authTime });
  return backend.tokens.mint(sessionIdentity({ ...account, sid, provider: "email", authTime }));
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe.each(TEST_DATABASE_KINDS)("sessions on %s", (kind) => {
  it("keep working across a restart: the ES256 key is stored in the database", async () => {
    database = await freshDatabase(kind, { survivesRestart: true });
    const first = await open(database.env);
    const token = await signIn(first);
    const keys = (await request(first.app).get(API_PATHS.jwks)).body;
    await first.close();
    opened.splice(opened.indexOf(first), 1);

    const second = await open(database.env);
    expect((await request(second.app).get(API_PATHS.jwks)).body).toEqual(keys);
    expect((await request(second.app).get(API_PATHS.projects).set(bearer(token))).status).toBe(200);
  });

  it("refresh keeps the session id; after logout neither refresh nor /api accept it", async () => {
    database = await freshDatabase(kind);
    const backend = await open(database.env);
    const token = await signIn(backend);

    const refreshed = await request(backend.app).post(API_PATHS.refresh).set(bearer(token));
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.token).sid).toBe(decodeJwt(token).sid);

    expect((await request(backend.app).post(API_PATHS.logout).set(bearer(token))).status).toBe(204);
    for (const used of [token, refreshed.body.token as string]) {
      expect((await request(backend.app).post(API_PATHS.refresh).set(bearer(used))).status).toBe(401);
      expect((await request(backend.app).get(API_PATHS.projects).set(bearer(used))).status).toBe(401);
    }
  });
});
