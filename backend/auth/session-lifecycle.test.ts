/**
 * A session's life on each database the backend runs on, with an identity provider in memory
 * (tests/integration/backend-auth.test.ts has the real Firebase Auth emulator).
 */
import { decodeJwt } from "jose";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_NAMES_HEADER, sessionNamesOfHeader } from "../../shared/contract/accounts.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { createFakeIdentity, type FakeIdentity } from "../../tests/support/fake-identity.ts";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";
import { signInAccount } from "./accounts.ts";
import { INVALID_SESSION_MESSAGE } from "./require-session.ts";
import { epochSeconds } from "./session-tokens.ts";
import { sessionIdentity, startSession } from "./sessions.ts";

const opened: Backend[] = [];
let database: FreshDatabase | undefined;
let identity: FakeIdentity;
afterEach(async () => {
  for (const backend of opened.splice(0)) await backend.close();
  await database?.drop();
  database = undefined;
});

async function open(env: Record<string, string>): Promise<Backend> {
  identity = createFakeIdentity();
  const backend = await createBackend(loadConfig({ LOG_LEVEL: "silent", ...env }), { identity });
  opened.push(backend);
  return backend;
}

const FIREBASE_UID = "uid-lifecycle";

/** A session as a sign-in would create it, for the user FIREBASE_UID (known to the identity provider). */
async function signIn(backend: Backend): Promise<string> {
  identity.addUser(FIREBASE_UID);
  const account = await signInAccount(
    backend.db,
    {
      firebaseUid: FIREBASE_UID,
      email: "lifecycle@example.com",
      emailVerified: true,
      avatarUrl: null,
      provider: "email",
    },
    { name: "Life Cycle", orgName: "Life Cycle's organization" },
  );
  const authTime = epochSeconds();
  const sid = await startSession(backend.db, { userId: account.user.id, provider: "email", authTime });
  return backend.tokens.mint(sessionIdentity({ ...account, sid, provider: "email", authTime }));
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const status = (backend: Backend, token: string) =>
  request(backend.app).get(API_PATHS.sessionStatus).set(bearer(token));

describe.each(TEST_DATABASE_KINDS)("sessions on %s", (kind) => {
  it("keep working across a restart: the ES256 key is stored in the database", async () => {
    database = await freshDatabase(kind, { survivesRestart: true });
    const first = await open(database.env);
    const token = await signIn(first);
    const published = await request(first.app).get(API_PATHS.jwks);
    // Public keys, the same for everyone: the one answer a cache may keep (for five minutes).
    expect(published.headers["cache-control"]).toBe("public, max-age=300");
    const keys = published.body;
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

  it("session-status: the names now while live, 401 after logout, without asking the identity provider", async () => {
    database = await freshDatabase(kind);
    const backend = await open(database.env);
    const token = await signIn(backend);
    const { name, orgName } = decodeJwt(token) as { name: string; orgName: string };

    const live = await status(backend, token);
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ name, orgName });
    expect(live.headers["cache-control"]).toBe("no-store");

    // Renamed (by any session): the token keeps the old names, the status says the new ones.
    for (const [path, newName] of [
      [API_PATHS.userUpdate, "Renamed User"],
      [API_PATHS.orgUpdate, "Renamed Org"],
    ] as const) {
      const update = await request(backend.app)
        .post(path)
        .set(bearer(token))
        .send({ updateData: { name: newName } });
      expect(update.status).toBe(200);
    }
    expect((await status(backend, token)).body).toEqual({ name: "Renamed User", orgName: "Renamed Org" });

    expect((await request(backend.app).post(API_PATHS.logout).set(bearer(token))).status).toBe(204);
    const revoked = await status(backend, token);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    expect(identity.lookups).toEqual([]);
  });

  it("every /api answer of a live session carries its names now, even a refusal by the handler; a revoked session's 401 carries none", async () => {
    database = await freshDatabase(kind);
    const backend = await open(database.env);
    const token = await signIn(backend);
    const namesOf = (answer: request.Response) => sessionNamesOfHeader(answer.headers[SESSION_NAMES_HEADER]);

    const projects = await request(backend.app).get(API_PATHS.projects).set(bearer(token));
    expect(projects.status).toBe(200);
    expect(namesOf(projects)).toEqual((await status(backend, token)).body);

    const renamed = await request(backend.app)
      .post(API_PATHS.userUpdate)
      .set(bearer(token))
      .send({ updateData: { name: "Zoë Ünicode" } });
    expect(namesOf(renamed)?.name).not.toBe("Zoë Ünicode");
    const unknown = await request(backend.app).get(API_PATHS.integration("no-such-host")).set(bearer(token));
    expect(unknown.status).toBe(404);
    expect(namesOf(unknown)?.name).toBe("Zoë Ünicode");

    expect((await request(backend.app).post(API_PATHS.logout).set(bearer(token))).status).toBe(204);
    const refused = await request(backend.app).get(API_PATHS.projects).set(bearer(token));
    expect(refused.status).toBe(401);
    expect(refused.headers[SESSION_NAMES_HEADER]).toBeUndefined();
  });

  it("refresh asks the identity provider: unreachable keeps the session (503), disabled or gone ends all of the user's sessions (401)", async () => {
    database = await freshDatabase(kind);
    const backend = await open(database.env);
    const refresh = (token: string) => request(backend.app).post(API_PATHS.refresh).set(bearer(token));

    const token = await signIn(backend);
    identity.unreachable = true;
    const unavailable = await refresh(token);
    expect(unavailable.status).toBe(503);
    expect(unavailable.body).toMatchObject({ code: ERROR_CODES.identityUnavailable });
    expect((await status(backend, token)).status).toBe(200);
    identity.unreachable = false;
    expect((await refresh(token)).status).toBe(200);
    expect(identity.lookups).toEqual([FIREBASE_UID, FIREBASE_UID]);

    const other = await signIn(backend);
    identity.addUser(FIREBASE_UID, { disabled: true });
    const disabled = await refresh(token);
    expect(disabled.status).toBe(401);
    expect(disabled.body).toEqual({ error: INVALID_SESSION_MESSAGE, code: ERROR_CODES.userDisabled });
    expect((await status(backend, token)).status).toBe(401);
    expect((await status(backend, other)).status).toBe(401);

    const later = await signIn(backend);
    identity.users.delete(FIREBASE_UID);
    const gone = await refresh(later);
    expect(gone.status).toBe(401);
    expect(gone.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    expect((await status(backend, later)).status).toBe(401);
  });
});
