/**
 * Sign-in, refresh and logout against a real Firebase Auth emulator and an in-memory database.
 */

import { createLocalJWKSet, decodeJwt, jwtVerify, SignJWT, UnsecuredJWT } from "jose";
import { sql } from "kysely";
import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createBackend } from "../../backend/app.ts";
import { INVALID_SESSION_MESSAGE } from "../../backend/auth/require-session.ts";
import { epochSeconds } from "../../backend/auth/session-tokens.ts";
import { loadConfig } from "../../backend/config.ts";
import { type RunningFirebaseEmulator, startFirebaseEmulator } from "../../scripts/lib/firebase-emulator.ts";
import {
  EMAIL_MAX,
  ID_MAX,
  ID_TOKEN_MAX,
  NAME_MAX,
  SESSION_ABSOLUTE_LIFETIME_SECONDS,
  SESSION_COOKIE_MAX_AGE_SECONDS,
  URL_MAX,
} from "../../shared/constants.ts";
import {
  ERRORS,
  SESSION_AUDIENCE_DEFAULT,
  SESSION_ISSUER_DEFAULT,
  sessionClaimsSchema,
  signInResponseSchema,
} from "../../shared/contract/accounts.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import { DEFAULT_PAGE_SIZE } from "../../shared/contract/paging.ts";
import { createLogger } from "../../shared/node/logging.ts";
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

async function login(
  body: { email: string; uid: string; idToken: string; name?: string; avatar_url?: string },
  path: string = API_PATHS.login,
) {
  const response = await request(backend.app).post(path).send({
    email: body.email,
    firebase_uid: body.uid,
    name: body.name,
    avatar_url: body.avatar_url,
    idToken: body.idToken,
  });
  if (typeof response.body.token === "string") secrets.add(response.body.token);
  return response;
}

let githubCount = 0;
/** Signs in through the emulator's GitHub provider, then at the backend. */
async function gitHubLogin(profile: { email: string; name?: string; emailVerified: boolean }) {
  githubCount += 1;
  const github = await signInWithGitHubOnEmulator(emulator.host, {
    githubId: `gh-${githubCount}-${Date.now()}`,
    ...profile,
  });
  secrets.add(github.idToken);
  const identity = { email: profile.email, uid: github.uid, idToken: github.idToken };
  return { ...identity, response: await login(identity) };
}

async function signedIn(options?: { name?: string }) {
  const user = await newUser(options);
  const response = await login(user);
  expect(response.status).toBe(200);
  const body = v.parse(signInResponseSchema, response.body);
  return { ...user, ...body, claims: v.parse(sessionClaimsSchema, decodeJwt(body.token)) };
}

const refresh = (token: string) =>
  request(backend.app).post(API_PATHS.refresh).set("Authorization", `Bearer ${token}`);
const logout = (token: string) =>
  request(backend.app).post(API_PATHS.logout).set("Authorization", `Bearer ${token}`);
const projects = (token: string) =>
  request(backend.app).get(API_PATHS.projects).set("Authorization", `Bearer ${token}`);
const sessionStatus = (token?: string) => {
  const call = request(backend.app).get(API_PATHS.sessionStatus);
  return token === undefined ? call : call.set("Authorization", `Bearer ${token}`);
};

async function countRows(
  table: "users" | "sessions" | "organizations",
  column: string,
  value: string,
): Promise<number> {
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
    const body = v.parse(signInResponseSchema, first.body);
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
    expect(response.body).toMatchObject({ error: ERRORS.accessDenied, code: ERROR_CODES.userDisabled });
  });

  it("answers 404 to a GitHub sign-in without an account, so the client sends the user to sign up, and creates nothing", async () => {
    const email = `octo-${Date.now()}@example.com`;
    const { uid, response } = await gitHubLogin({ email, name: "Octo Cat", emailVerified: true });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: ERRORS.gitHub.noAccount });
    expect(await countRows("users", "firebase_uid", uid)).toBe(0);
    expect(await countRows("users", "email", email)).toBe(0);
  });

  it("keeps the account when its Firebase user is re-created with the verified address, ending the old sessions", async () => {
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
    expect((await sessionStatus(original.token)).status).toBe(401);
    expect((await sessionStatus(response.body.token)).status).toBe(200);
  });

  it("answers 403 EMAIL_NOT_VERIFIED when an unverified identity claims the address of an existing account, and leaves the account alone", async () => {
    const original = await signedIn();
    await deleteEmulatorUser(emulator.host, emulator.projectId, original.uid);
    const github = await gitHubLogin({ email: original.email, emailVerified: false });
    expect(github.response.status).toBe(403);
    expect(github.response.body.code).toBe(ERROR_CODES.emailNotVerified);
    expect(await countRows("users", "firebase_uid", github.uid)).toBe(0);
    expect(await countRows("users", "firebase_uid", original.uid)).toBe(1);
    expect((await sessionStatus(original.token)).status).toBe(200);
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
    const claims = v.parse(sessionClaimsSchema, decodeJwt(response.body.token));
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
    const claims = v.parse(sessionClaimsSchema, decodeJwt(nearlyOld.body.token));
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
    expect(good.body).toEqual({
      success: true,
      data: { projects: [] },
      page: { total: 0, page: 1, pageSize: DEFAULT_PAGE_SIZE },
    });
  });

  it("answers 401 once the user is deleted from the backend", async () => {
    const session = await signedIn();
    await backend.db.deleteFrom("users").where("id", "=", session.user.id).execute();
    expect((await projects(session.token)).status).toBe(401);
    expect((await refresh(session.token)).status).toBe(401);
  });
});

describe("strict, case-sensitive routing", () => {
  it("signs in only at the exact path: /auth/LOGIN, /auth/Login and /auth/login/ answer 404", async () => {
    const user = await newUser();
    for (const path of ["/auth/LOGIN", "/auth/Login", "/auth/login/", "/Auth/login"]) {
      const response = await login(user, path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).toEqual({ error: "Not found" });
    }
    expect(await countRows("users", "firebase_uid", user.uid)).toBe(0);
    expect((await login(user)).status).toBe(200);
  });

  it("matches every other route exactly too", async () => {
    const session = await signedIn();
    const bearer = { Authorization: `Bearer ${session.token}` };
    const variants: Array<["get" | "post", string]> = [
      ["get", "/API/projects"],
      ["get", "/api/Projects"],
      ["get", "/api/projects/"],
      ["post", "/auth/Refresh"],
      ["post", "/auth/refresh/"],
      ["get", "/auth/Session-Status"],
      ["get", "/auth/session-status/"],
      ["post", "/auth/LOGOUT"],
      ["post", "/auth/logout/"],
      ["get", "/HEALTHZ"],
      ["get", "/healthz/"],
      ["get", "/.well-known/JWKS.json"],
      ["get", "/.well-known/jwks.json/"],
    ];
    for (const [method, path] of variants) {
      const response = await request(backend.app)[method](path).set(bearer);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await projects(session.token)).status).toBe(200);
    expect((await sessionStatus(session.token)).status).toBe(200);
  });
});

describe("GET /auth/session-status", () => {
  it("answers the current names, not to be cached, while the session is live", async () => {
    const session = await signedIn();
    const response = await sessionStatus(session.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ name: session.claims.name, orgName: session.claims.orgName });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("answers 401 with the usual error body once the session is logged out", async () => {
    const session = await signedIn();
    expect((await sessionStatus(session.token)).status).toBe(200);
    expect((await logout(session.token)).status).toBe(204);
    const response = await sessionStatus(session.token);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("answers 401 without a token, and for a malformed, forged or expired one", async () => {
    const missing = await sessionStatus();
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: ERRORS.noAuthToken });
    expect(missing.headers["cache-control"]).toBe("no-store");

    const session = await signedIn();
    const forged = await new SignJWT({ ...session.claims })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("x".repeat(32)));
    const { iat: _iat, exp: _exp, ...identity } = session.claims;
    const expired = await backend.tokens.mint(
      identity,
      epochSeconds() - SESSION_COOKIE_MAX_AGE_SECONDS - 120,
    );
    for (const token of ["not-a-token", "abc.def.ghi", forged, expired]) {
      const response = await sessionStatus(token);
      expect(response.status, token).toBe(401);
      expect(response.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    }
  });

  it("answers 401 past the absolute lifetime and once the user is gone", async () => {
    const old = await signedIn();
    await sql`update sessions set auth_time = now() - make_interval(secs => ${SESSION_ABSOLUTE_LIFETIME_SECONDS})
              where id = ${old.claims.sid}`.execute(backend.db);
    expect((await sessionStatus(old.token)).status).toBe(401);

    const gone = await signedIn();
    await backend.db.deleteFrom("users").where("id", "=", gone.user.id).execute();
    expect((await sessionStatus(gone.token)).status).toBe(401);
  });
});

describe("identities disabled, deleted or revoked at Firebase", () => {
  it("a disabled user can neither sign in (403 USER_DISABLED) nor refresh (401), and its sessions end", async () => {
    const session = await signedIn();
    const other = await login({ ...session, idToken: await idTokenOf(session.email) });
    expect(other.status).toBe(200);
    await updateEmulatorUser(emulator.host, emulator.projectId, session.uid, { disabled: true });

    const signIn = await login(session);
    expect(signIn.status).toBe(403);
    expect(signIn.body).toMatchObject({ error: ERRORS.accessDenied, code: ERROR_CODES.userDisabled });
    const refused = await refresh(session.token);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: INVALID_SESSION_MESSAGE, code: ERROR_CODES.userDisabled });
    // The refusal ends every session of the user, not only the one that asked.
    expect((await sessionStatus(session.token)).status).toBe(401);
    expect((await sessionStatus(other.body.token)).status).toBe(401);
    expect((await projects(other.body.token)).status).toBe(401);

    await updateEmulatorUser(emulator.host, emulator.projectId, session.uid, { disabled: false });
    expect((await login({ ...session, idToken: await idTokenOf(session.email) })).status).toBe(200);
  });

  it("a deleted user cannot refresh (401), and its sessions end", async () => {
    const session = await signedIn();
    expect((await refresh(session.token)).status).toBe(200);
    await deleteEmulatorUser(emulator.host, emulator.projectId, session.uid);
    const refused = await refresh(session.token);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: INVALID_SESSION_MESSAGE });
    expect((await sessionStatus(session.token)).status).toBe(401);
    expect((await projects(session.token)).status).toBe(401);
  });

  it("refuses an ID token revoked at Firebase with 401, saying so", async () => {
    const user = await newUser();
    // Revokes every token of a sign-in before this second (what revokeRefreshTokens does, a second later).
    await updateEmulatorUser(emulator.host, emulator.projectId, user.uid, { validSince: epochSeconds() + 1 });
    const response = await login(user);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: ERRORS.notAuthorized, message: expect.stringMatching(/revoked/) });
    expect(await countRows("users", "firebase_uid", user.uid)).toBe(0);
  });
});

describe("account linking", () => {
  it("creates nothing for a GitHub identity whose address GitHub did not verify", async () => {
    const email = `unverified-${Date.now()}@example.com`;
    const { uid, response } = await gitHubLogin({ email, name: "Not Verified", emailVerified: false });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      error: "Email not verified",
      code: ERROR_CODES.emailNotVerified,
      message: expect.stringMatching(/verif/i),
    });
    expect(await countRows("users", "firebase_uid", uid)).toBe(0);
    expect(await countRows("users", "email", email)).toBe(0);
    expect(await countRows("organizations", "name", "Not Verified's organization")).toBe(0);
  });

  it("re-linking an account to another verified identity ends every session of the first", async () => {
    const a = await signedIn();
    const aSecond = await login({ ...a, idToken: await idTokenOf(a.email) });
    // Firebase keeps one user per address: A moves away, so that B can have the account's address.
    await updateEmulatorUser(emulator.host, emulator.projectId, a.uid, { email: `moved-${a.email}` });
    const b = await gitHubLogin({ email: a.email, emailVerified: true });
    expect(b.uid).not.toBe(a.uid);
    expect(b.response.status).toBe(200);
    expect(b.response.body.user.id).toBe(a.user.id);
    expect(await countRows("users", "firebase_uid", b.uid)).toBe(1);
    expect(await countRows("users", "firebase_uid", a.uid)).toBe(0);

    for (const token of [a.token, aSecond.body.token as string]) {
      const refreshed = await refresh(token);
      expect(refreshed.status).toBe(401);
      expect(refreshed.body).toMatchObject({ error: INVALID_SESSION_MESSAGE });
      expect((await sessionStatus(token)).status).toBe(401);
      expect((await projects(token)).status).toBe(401);
    }
    expect((await sessionStatus(b.response.body.token)).status).toBe(200);
    expect((await projects(b.response.body.token)).status).toBe(200);
  });
});

describe("sign-in input bounds", () => {
  it("answers 400 INVALID_REQUEST for an over-long field and creates nothing", async () => {
    const user = await newUser();
    const cases: Array<[string, Partial<Parameters<typeof login>[0]>]> = [
      ["name", { name: "n".repeat(NAME_MAX + 1) }],
      ["email", { email: `${"e".repeat(EMAIL_MAX)}@example.com` }],
      ["firebase_uid", { uid: "u".repeat(ID_MAX + 1) }],
      ["idToken", { idToken: "t".repeat(ID_TOKEN_MAX + 1) }],
      ["avatar_url", { avatar_url: `https://example.com/${"a".repeat(URL_MAX)}` }],
    ];
    for (const [field, overrides] of cases) {
      const response = await login({ ...user, ...overrides });
      expect(response.status, field).toBe(400);
      expect(response.body).toMatchObject({
        error: "Invalid request body",
        code: ERROR_CODES.invalidRequest,
      });
      expect(response.body.message).toMatch(new RegExp(`^${field}:`));
    }
    expect(await countRows("users", "firebase_uid", user.uid)).toBe(0);
    expect((await login({ ...user, name: "n".repeat(NAME_MAX) })).status).toBe(200);
  });

  it("accepts only https avatar URLs", async () => {
    const user = await newUser();
    const refused = [
      "http://example.com/a.png",
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "//example.com/a.png",
      "ftp://example.com/a.png",
    ];
    for (const avatar_url of refused) {
      const response = await login({ ...user, avatar_url });
      expect(response.status, avatar_url).toBe(400);
      expect(response.body.code).toBe(ERROR_CODES.invalidRequest);
      expect(response.body.message).toMatch(/^avatar_url:/);
    }
    expect(await countRows("users", "firebase_uid", user.uid)).toBe(0);
    const accepted = await login({ ...user, avatar_url: "https://avatars.example.com/u/1.png" });
    expect(accepted.status).toBe(200);
    const row = await backend.db
      .selectFrom("users")
      .select("avatar_url")
      .where("firebase_uid", "=", user.uid)
      .executeTakeFirst();
    expect(row?.avatar_url).toBe("https://avatars.example.com/u/1.png");
  });

  it("names the account and the token after the verified identity, not after the client", async () => {
    const user = await newUser({ name: "Verified Name" });
    const response = await login({ ...user, name: "Mallory Admin" });
    expect(response.status).toBe(200);
    expect(response.body.user.name).toBe("Verified Name");
    expect(response.body.org.name).toBe("Verified Name's organization");
    expect(decodeJwt(response.body.token)).toMatchObject({
      name: "Verified Name",
      orgName: "Verified Name's organization",
    });
  });

  it("takes the client's name, tidied, only when the identity has none, and caps a long verified name", async () => {
    const email = `nameless-${Date.now()}@example.com`;
    const { uid } = await createEmulatorUser(emulator.host, emulator.projectId, {
      email,
      password: PASSWORD,
      emailVerified: true,
    });
    const nameless = await login({ email, uid, idToken: await idTokenOf(email), name: "  Client \n Name " });
    expect(nameless.status).toBe(200);
    expect(nameless.body.user.name).toBe("Client Name");
    expect(decodeJwt(nameless.body.token).name).toBe("Client Name");

    // Firebase allows longer display names than the contract; only the identity's name is sent here.
    const long = await newUser({ name: "L".repeat(NAME_MAX * 3) });
    const response = await login({ ...long, name: undefined });
    expect(response.status).toBe(200);
    const claims = v.parse(sessionClaimsSchema, decodeJwt(response.body.token));
    expect(claims.name).toBe("L".repeat(NAME_MAX));
    expect(response.body.user.name).toBe("L".repeat(NAME_MAX));
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
