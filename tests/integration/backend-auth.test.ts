/**
 * Sign-in, refresh and logout against a real Firebase Auth emulator and an in-memory database.
 */
import { createLocalJWKSet, decodeJwt, jwtVerify, SignJWT, UnsecuredJWT } from "jose";
import { sql } from "kysely";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createBackend } from "../../backend/app.ts";
import { INVALID_SESSION_MESSAGE } from "../../backend/auth/require-session.ts";
import { epochSeconds } from "../../backend/auth/session-tokens.ts";
import { loadConfig } from "../../backend/config.ts";
import { type RunningFirebaseEmulator, startFirebaseEmulator } from "../../scripts/lib/firebase-emulator.ts";
import { SESSION_ABSOLUTE_LIFETIME_SECONDS, SESSION_COOKIE_MAX_AGE_SECONDS } from "../../shared/constants.ts";
import {
  API_PATHS,
  SESSION_AUDIENCE_DEFAULT,
  SESSION_ISSUER_DEFAULT,
  sessionClaimsSchema,
  signInResponseSchema,
} from "../../shared/contract.ts";
import { createLogger } from "../../shared/logging.ts";
import { ERRORS } from "../../shared/messages.ts";
import {
  createEmulatorUser,
  deleteEmulatorUser,
  signInOnEmulator,
  signInWithGitHubOnEmulator,
  updateEmulatorUser,
} from "../support/firebase-emulator-users.ts";

let emulator: RunningFirebaseEmulator;
let backend: Backend;
const logLines: string[] = [];
/** Every credential seen in a test; none may appear in the logs. */
const secrets = new Set<string>();

beforeAll(async () => {
  emulator = await startFirebaseEmulator();
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "info",
    DATA_DIR: "memory://",
    FIREBASE_PROJECT_ID: emulator.projectId,
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
  });
  backend = await createBackend(config, {
    logger: createLogger(
      { name: "backend", level: config.logLevel },
      { write: (line: string) => logLines.push(line) },
    ),
  });
});

afterAll(async () => {
  await backend?.close();
  await emulator?.stop();
});

let userCount = 0;
const PASSWORD = "Test-Password-1!";

async function newUser(options: { name?: string; emailVerified?: boolean } = {}) {
  userCount += 1;
  const email = `user-${userCount}-${Date.now()}@example.com`;
  const name = options.name ?? `User ${userCount}`;
  const { uid } = await createEmulatorUser(emulator.host, emulator.projectId, {
    email,
    password: PASSWORD,
    displayName: name,
    emailVerified: options.emailVerified ?? true,
  });
  return { uid, email, name, idToken: await idTokenOf(email) };
}

async function idTokenOf(email: string): Promise<string> {
  const idToken = await signInOnEmulator(emulator.host, email, PASSWORD);
  secrets.add(idToken);
  return idToken;
}

async function login(body: { email: string; uid: string; idToken: string; name?: string }) {
  const response = await request(backend.app)
    .post(API_PATHS.login)
    .send({ email: body.email, firebase_uid: body.uid, name: body.name, idToken: body.idToken });
  if (typeof response.body.token === "string") secrets.add(response.body.token);
  return response;
}

async function signedIn(options?: { name?: string }) {
  const user = await newUser(options);
  const response = await login(user);
  expect(response.status).toBe(200);
  const body = signInResponseSchema.parse(response.body);
  return { ...user, ...body, claims: sessionClaimsSchema.parse(decodeJwt(body.token)) };
}

const refresh = (token: string) =>
  request(backend.app).post(API_PATHS.refresh).set("Authorization", `Bearer ${token}`);
const logout = (token: string) =>
  request(backend.app).post(API_PATHS.logout).set("Authorization", `Bearer ${token}`);
const projects = (token: string) =>
  request(backend.app).get(API_PATHS.projects).set("Authorization", `Bearer ${token}`);

async function countRows(table: "users" | "sessions", column: string, value: string): Promise<number> {
  const query = sql<{ count: string }>`
    select count(*) as count from ${sql.table(table)} where ${sql.ref(column)} = ${value}`;
  const { rows } = await query.execute(backend.db);
  return Number(rows[0]?.count);
}

describe("POST /auth/login", () => {
  it("creates the user and an organisation on the first sign-in and finds them again on the next", async () => {
    const user = await newUser({ name: "Ada Lovelace" });
    const first = await login(user);
    expect(first.status).toBe(200);
    const body = signInResponseSchema.parse(first.body);
    expect(body.user).toEqual({
      id: expect.any(String),
      email: user.email,
      name: "Ada Lovelace",
      role: "owner",
    });
    expect(body.org).toEqual({ org_id: expect.any(String), name: "Ada Lovelace's organization" });

    const second = await login({ ...user, idToken: await idTokenOf(user.email) });
    expect(second.status).toBe(200);
    expect(second.body.user).toEqual(body.user);
    expect(second.body.org).toEqual(body.org);
    expect(await countRows("users", "firebase_uid", user.uid)).toBe(1);
    expect(await countRows("users", "org_id", body.org.org_id)).toBe(1);
    expect(await countRows("sessions", "user_id", body.user.id)).toBe(2);
    expect(decodeJwt(second.body.token).sid).not.toBe(decodeJwt(body.token).sid);
  });

  it("signs a session token whose claims are exactly the contract's and verify against the JWKS", async () => {
    const before = epochSeconds();
    const session = await signedIn({ name: "Grace Hopper" });
    const jwks = await request(backend.app).get(API_PATHS.jwks);
    expect(jwks.status).toBe(200);

    const { payload, protectedHeader } = await jwtVerify(session.token, createLocalJWKSet(jwks.body), {
      algorithms: ["ES256"],
      issuer: SESSION_ISSUER_DEFAULT,
      audience: SESSION_AUDIENCE_DEFAULT,
    });
    expect(protectedHeader.kid).toBe(jwks.body.keys[0].kid);
    expect(Object.keys(payload).sort()).toEqual(
      [
        "sub",
        "sid",
        "orgId",
        "email",
        "name",
        "role",
        "provider",
        "orgName",
        "iat",
        "exp",
        "auth_time",
        "iss",
        "aud",
      ].sort(),
    );
    expect(payload).toMatchObject({
      sub: session.user.id,
      orgId: session.org.org_id,
      email: session.email,
      name: "Grace Hopper",
      role: "owner",
      provider: "email",
      orgName: "Grace Hopper's organization",
    });
    expect(session.claims.auth_time).toBeGreaterThanOrEqual(before);
    expect(session.claims.iat).toBe(session.claims.auth_time);
    expect(session.claims.exp - session.claims.iat).toBe(SESSION_COOKIE_MAX_AGE_SECONDS);
    const row = await backend.db
      .selectFrom("sessions")
      .select(["user_id", "revoked_at"])
      .where("id", "=", session.claims.sid)
      .executeTakeFirst();
    expect(row).toEqual({ user_id: session.user.id, revoked_at: null });
  });

  it("answers 403 EMAIL_NOT_VERIFIED for an unverified password account and creates nothing", async () => {
    const user = await newUser({ emailVerified: false });
    const response = await login(user);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      error: "Email not verified",
      code: "EMAIL_NOT_VERIFIED",
      message: expect.any(String),
    });
    expect(await countRows("users", "firebase_uid", user.uid)).toBe(0);

    await updateEmulatorUser(emulator.host, emulator.projectId, user.uid, { emailVerified: true });
    expect((await login({ ...user, idToken: await idTokenOf(user.email) })).status).toBe(200);
  });

  it("refuses another user's ID token, or one for another e-mail, with 401", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const wrongUid = await login({ ...bob, idToken: alice.idToken });
    expect(wrongUid.status).toBe(401);
    expect(wrongUid.body.error).toBe(ERRORS.notAuthorized);
    const wrongEmail = await login({ ...alice, email: bob.email });
    expect(wrongEmail.status).toBe(401);
    expect(await countRows("users", "firebase_uid", alice.uid)).toBe(0);
    expect(await countRows("users", "firebase_uid", bob.uid)).toBe(0);
  });

  it("refuses forged ID tokens with 401", async () => {
    const user = await newUser();
    const claims = decodeJwt(user.idToken);
    const resigned = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("attacker-chosen-secret-attacker-chosen"));
    const unknownUser = new UnsecuredJWT({
      ...claims,
      sub: "no-such-user",
      user_id: "no-such-user",
    }).encode();
    const otherProject = new UnsecuredJWT({
      ...claims,
      aud: "demo-other",
      iss: "https://securetoken.google.com/demo-other",
    }).encode();

    for (const idToken of ["not-a-jwt", resigned, otherProject]) {
      const response = await login({ ...user, idToken });
      expect(response.status, idToken).toBe(401);
      expect(response.body).toMatchObject({ error: ERRORS.notAuthorized });
    }
    expect((await login({ ...user, uid: "no-such-user", idToken: unknownUser })).status).toBe(401);
    expect(await countRows("users", "firebase_uid", user.uid)).toBe(0);
  });

  it("answers 403 for a disabled Firebase user", async () => {
    const user = await newUser();
    await updateEmulatorUser(emulator.host, emulator.projectId, user.uid, { disabled: true });
    const response = await login(user);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: ERRORS.accessDenied, code: "USER_DISABLED" });
  });

  it("signs in with GitHub (provider github), even when GitHub did not verify the address", async () => {
    const email = `octo-${Date.now()}@example.com`;
    const github = await signInWithGitHubOnEmulator(emulator.host, {
      githubId: `gh-${Date.now()}`,
      email,
      name: "Octo Cat",
    });
    secrets.add(github.idToken);
    const response = await login({ email, uid: github.uid, idToken: github.idToken });
    expect(response.status).toBe(200);
    expect(decodeJwt(response.body.token).provider).toBe("github");
    expect(response.body.user.name).toBe("Octo Cat");
  });

  it("keeps the account when its Firebase user is re-created with the verified address", async () => {
    const original = await signedIn();
    await deleteEmulatorUser(emulator.host, emulator.projectId, original.uid);
    const { uid } = await createEmulatorUser(emulator.host, emulator.projectId, {
      email: original.email,
      password: PASSWORD,
      emailVerified: true,
    });
    const response = await login({ email: original.email, uid, idToken: await idTokenOf(original.email) });
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(original.user.id);
    expect(response.body.org.org_id).toBe(original.org.org_id);
  });

  it("answers 409 when an unverified identity claims the address of an existing account", async () => {
    const original = await signedIn();
    await deleteEmulatorUser(emulator.host, emulator.projectId, original.uid);
    const github = await signInWithGitHubOnEmulator(emulator.host, {
      githubId: `gh-taken-${Date.now()}`,
      email: original.email,
      emailVerified: false,
    });
    secrets.add(github.idToken);
    const response = await login({ email: original.email, uid: github.uid, idToken: github.idToken });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("EMAIL_IN_USE");
    expect(await countRows("users", "firebase_uid", github.uid)).toBe(0);
  });

  it("answers 400 naming the invalid fields", async () => {
    const response = await request(backend.app)
      .post(API_PATHS.login)
      .send({ email: "nope", firebase_uid: "x" });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("INVALID_REQUEST");
    expect(response.body.message).toMatch(/email/);
    expect(response.body.message).toMatch(/idToken/);
  });
});

describe("POST /auth/refresh", () => {
  it("gives a new token for the same session, with the user's current name", async () => {
    const session = await signedIn();
    await backend.db
      .updateTable("users")
      .set({ name: "Renamed" })
      .where("id", "=", session.user.id)
      .execute();
    const response = await refresh(session.token);
    expect(response.status).toBe(200);
    secrets.add(response.body.token);
    const claims = sessionClaimsSchema.parse(decodeJwt(response.body.token));
    expect(claims).toMatchObject({
      sid: session.claims.sid,
      auth_time: session.claims.auth_time,
      name: "Renamed",
    });
    expect(claims.iat).toBeGreaterThanOrEqual(session.claims.iat);
    expect((await refresh(response.body.token)).status).toBe(200);
  });

  it("refuses a missing token, a malformed one and one signed by someone else", async () => {
    const missing = await request(backend.app).post(API_PATHS.refresh);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: ERRORS.noAuthToken });
    const malformed = await refresh("abc.def.ghi");
    expect(malformed.status).toBe(401);
    expect(malformed.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    const session = await signedIn();
    const forged = await new SignJWT({ ...session.claims })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("x".repeat(32)));
    expect((await refresh(forged)).status).toBe(401);
  });

  it("refuses an expired token of a live session", async () => {
    const session = await signedIn();
    const { iat: _iat, exp: _exp, ...identity } = session.claims;
    const now = epochSeconds();
    const expired = await backend.tokens.mint(identity, now - SESSION_COOKIE_MAX_AGE_SECONDS - 120);
    const stillValid = await backend.tokens.mint(identity, now - SESSION_COOKIE_MAX_AGE_SECONDS + 120);
    const response = await refresh(expired);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    expect((await projects(expired)).status).toBe(401);
    expect((await refresh(stillValid)).status).toBe(200);
  });

  it("refuses once the session is 30 days old, and caps tokens at that age before then", async () => {
    const session = await signedIn();
    // auth_time never changes in the application; move the sign-in back in time directly.
    const signedInDaysAgo = (days: number) =>
      sql`update sessions set auth_time = now() - make_interval(secs => ${days * 86_400})
          where id = ${session.claims.sid}`.execute(backend.db);

    await signedInDaysAgo(29);
    const nearlyOld = await refresh(session.token);
    expect(nearlyOld.status).toBe(200);
    secrets.add(nearlyOld.body.token);
    const claims = sessionClaimsSchema.parse(decodeJwt(nearlyOld.body.token));
    expect(claims.auth_time).toBeLessThanOrEqual(epochSeconds() - 29 * 86_400);
    expect(claims.exp).toBe(claims.auth_time + SESSION_ABSOLUTE_LIFETIME_SECONDS);

    await signedInDaysAgo(30);
    const tooOld = await refresh(session.token);
    expect(tooOld.status).toBe(401);
    expect(tooOld.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    expect((await projects(session.token)).status).toBe(401);
  });
});

describe("POST /auth/logout", () => {
  it("revokes only this session, idempotently; its tokens are refused from then on", async () => {
    const session = await signedIn();
    const other = await login({ ...session, idToken: await idTokenOf(session.email) });
    expect((await projects(session.token)).status).toBe(200);

    const first = await logout(session.token);
    expect(first.status).toBe(204);
    expect(first.text).toBe("");
    expect((await logout(session.token)).status).toBe(204);

    const refused = await refresh(session.token);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    const api = await projects(session.token);
    expect(api.status).toBe(401);
    expect(api.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    expect((await projects(other.body.token)).status).toBe(200);
  });

  it("needs a valid token", async () => {
    expect((await request(backend.app).post(API_PATHS.logout)).body).toEqual({ error: ERRORS.noAuthToken });
    expect((await logout("not-a-token")).status).toBe(401);
  });
});

describe("/api guard", () => {
  it("answers 401 without a token and with a bad one, and passes a good one", async () => {
    const missing = await request(backend.app).get(API_PATHS.projects);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: ERRORS.noAuthToken });
    const bad = await projects("not-a-token");
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    const session = await signedIn();
    const good = await projects(session.token);
    expect(good.status).toBe(200);
    expect(good.body).toEqual({ success: true, data: { projects: [] } });
  });

  it("answers 401 once the user is deleted from the backend", async () => {
    const session = await signedIn();
    await backend.db.deleteFrom("users").where("id", "=", session.user.id).execute();
    expect((await projects(session.token)).status).toBe(401);
    expect((await refresh(session.token)).status).toBe(401);
  });
});

describe("logging", () => {
  it("tags each line with the caller's X-Request-Id and never writes tokens or credentials", async () => {
    // Health probes are not logged; any other request is, with the caller's id.
    const response = await request(backend.app).get("/api/projects").set("X-Request-Id", "req-test-42");
    expect(response.status).toBe(401);
    expect(response.headers["x-request-id"]).toBe("req-test-42");
    const logged = logLines.join("");
    expect(logged).toContain('"id":"req-test-42"');
    expect(logged).toContain('"path":"/auth/login"');
    expect(secrets.size).toBeGreaterThan(5);
    for (const secret of secrets) expect(logged).not.toContain(secret);
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toMatch(/bearer/i);
  });
});
