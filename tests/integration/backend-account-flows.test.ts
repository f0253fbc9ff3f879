/**
 * The account flows of the backend against a real Firebase Auth emulator, a local fake of GitHub
 * (tests/support/fake-github.ts) and, for SMTP, a local smtp-server: signup (pending until verified),
 * GitHub signup and sign-in, sign-in with an OAuth code, resend verification, forgot and reset
 * password, and the local outbox.
 */

import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { decodeJwt } from "jose";
import { sql } from "kysely";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createBackend } from "../../backend/app.ts";
import { loadConfig } from "../../backend/config.ts";
import { type RunningFirebaseEmulator, startFirebaseEmulator } from "../../scripts/lib/firebase-emulator.ts";
import {
  ACCOUNT_MESSAGES,
  ERRORS,
  outboxResponseSchema,
  signInResponseSchema,
  signupResponseSchema,
  TEXT,
} from "../../shared/contract/accounts.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { type FakeGitHub, type FakeGitHubEmail, startFakeGitHub } from "../support/fake-github.ts";
import { createFakeIdentity } from "../support/fake-identity.ts";
import {
  applyVerificationCodeOnEmulator,
  createEmulatorUser,
  emulatorOobCodes,
  signInOnEmulator,
  signInWithGitHubOnEmulator,
  updateEmulatorUser,
} from "../support/firebase-emulator-users.ts";

const PUBLIC_ORIGIN = "https://argus.example.test";
const PASSWORD = "Test-Password-1!";
const NEW_PASSWORD = "Fresh-Phrase-Tiger-42!";

let emulator: RunningFirebaseEmulator;
let github: FakeGitHub;
let backend: Backend;
const logLines: string[] = [];
/** Credentials seen in the tests that must never be logged (the outbox's links may be, locally). */
const secrets = new Set<string>();

function testLogger(lines: string[]) {
  return createLogger({ name: "backend", level: "info" }, { write: (line: string) => lines.push(line) });
}

function emulatorEnv() {
  return {
    NODE_ENV: "test",
    LOG_LEVEL: "info",
    DATA_DIR: "memory://",
    FIREBASE_PROJECT_ID: emulator.projectId,
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    PUBLIC_ORIGIN,
  };
}

beforeAll(async () => {
  [emulator, github] = await Promise.all([startFirebaseEmulator(), startFakeGitHub()]);
  secrets.add(github.clientSecret);
  const config = loadConfig({
    ...emulatorEnv(),
    GITHUB_CLIENT_ID: github.clientId,
    GITHUB_CLIENT_SECRET: github.clientSecret,
    GITHUB_API_URL: github.url,
    GITHUB_OAUTH_URL: github.url,
  });
  backend = await createBackend(config, { logger: testLogger(logLines) });
});

afterAll(async () => {
  await backend?.close();
  await github?.close();
  await emulator?.stop();
});

let count = 0;
const uniqueEmail = (label: string) => `${label}-${++count}-${Date.now()}@example.com`;

async function passwordUser(options: { emailVerified: boolean; displayName?: string }) {
  const email = uniqueEmail("user");
  const { uid } = await createEmulatorUser(emulator.host, emulator.projectId, {
    email,
    password: PASSWORD,
    ...options,
  });
  return { uid, email, idToken: await idTokenOf(email) };
}

async function idTokenOf(email: string, password = PASSWORD): Promise<string> {
  const idToken = await signInOnEmulator(emulator.host, email, password);
  secrets.add(idToken);
  return idToken;
}

function post(path: string, body: unknown) {
  return request(backend.app)
    .post(path)
    .send(body as object)
    .then((response) => {
      if (typeof response.body?.token === "string") secrets.add(response.body.token);
      return response;
    });
}

const login = (user: { email: string; uid: string; idToken: string }, extra: Record<string, unknown> = {}) =>
  post(API_PATHS.login, { email: user.email, firebase_uid: user.uid, idToken: user.idToken, ...extra });

const signupBody = (user: { email: string; idToken: string }) => ({
  name: "Ada Lovelace",
  email: user.email,
  company: "Analytical Engines",
  source: "A friend",
  type: "EMAIL",
  idToken: user.idToken,
});

const sessionStatus = (token: string) =>
  request(backend.app).get(API_PATHS.sessionStatus).set("Authorization", `Bearer ${token}`);

async function rows(table: "users" | "organizations" | "pending_signups", column: string, value: string) {
  const query = sql<{ count: string }>`
    select count(*) as count from ${sql.table(table)} where ${sql.ref(column)} = ${value}`;
  const { rows } = await query.execute(backend.db);
  return Number(rows[0]?.count);
}

/** The outbox's messages to one address, newest first, once the backend finished sending. */
async function mailTo(email: string) {
  await backend.settled();
  const response = await request(backend.app).get(API_PATHS.outbox);
  expect(response.status).toBe(200);
  expect(response.headers["cache-control"]).toBe("no-store");
  return v.parse(outboxResponseSchema, response.body).messages.filter((message) => message.to === email);
}

/** The one link of an account e-mail: the app's page with the mode and the emulator's own code. */
async function linkOf(
  message: { links: string[]; text: string },
  email: string,
  page: string,
  mode: string,
  requestType: string,
) {
  expect(message.links).toHaveLength(1);
  const link = new URL(message.links[0] as string);
  expect(message.text).toContain(link.href);
  expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_ORIGIN}${page}`);
  expect(link.searchParams.get("mode")).toBe(mode);
  const oobCode = link.searchParams.get("oobCode");
  const issued = await emulatorOobCodes(emulator.host, emulator.projectId);
  expect(issued).toContainEqual(expect.objectContaining({ email, oobCode, requestType }));
  return oobCode as string;
}

let githubIds = 5_000_000;
/** A GitHub user known to the fake GitHub, signed in to Firebase with GitHub as the popup would. */
async function gitHubUser(options: { emails: FakeGitHubEmail[]; email?: string; name?: string }) {
  const id = ++githubIds;
  const email = options.email ?? (options.emails[0] as FakeGitHubEmail).email;
  const accessToken = github.addUser({
    id,
    login: `octo${id}`,
    name: options.name ?? null,
    emails: options.emails,
  });
  secrets.add(accessToken);
  // Like a real project, Firebase does not vouch for the GitHub address.
  const firebase = await signInWithGitHubOnEmulator(emulator.host, {
    githubId: String(id),
    email,
    name: options.name,
    emailVerified: false,
  });
  secrets.add(firebase.idToken);
  return { id, email, accessToken, uid: firebase.uid, idToken: firebase.idToken };
}

const githubSignupBody = (user: Awaited<ReturnType<typeof gitHubUser>>, accessToken = user.accessToken) => ({
  email: user.email,
  displayName: null,
  photoURL: null,
  screenName: `octo${user.id}`,
  localId: user.uid,
  oauthAccessToken: accessToken,
  scopes: ["user:email", "read:user"],
  idToken: user.idToken,
});

describe("POST /auth/signup", () => {
  it("keeps an unverified signup as a pending profile and mails the link; the first verified sign-in creates the account from it", async () => {
    const user = await passwordUser({ emailVerified: false });
    const response = await post(API_PATHS.signup, signupBody(user));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      requiresEmailVerification: true,
      message: TEXT.accountCreatedVerify,
    });
    expect(await rows("users", "email", user.email)).toBe(0);
    expect(await rows("organizations", "name", "Analytical Engines")).toBe(0);
    expect(await rows("pending_signups", "firebase_uid", user.uid)).toBe(1);

    const [mail, ...more] = await mailTo(user.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe("Verify your e-mail address for Argus");
    const oobCode = await linkOf(mail as never, user.email, "/email-verified", "verifyEmail", "VERIFY_EMAIL");

    // Not verified yet: no sign-in, no account.
    const early = await login(user);
    expect(early.status).toBe(403);
    expect(early.body.code).toBe(ERROR_CODES.emailNotVerified);
    expect(await rows("users", "email", user.email)).toBe(0);

    // The /email-verified page applies the code with Firebase; then the sign-in creates the account.
    await applyVerificationCodeOnEmulator(emulator.host, oobCode);
    const signedIn = await login({ ...user, idToken: await idTokenOf(user.email) }, { name: "Someone Else" });
    expect(signedIn.status).toBe(200);
    const body = v.parse(signInResponseSchema, signedIn.body);
    expect(body.user).toMatchObject({ email: user.email, name: "Ada Lovelace", role: "owner" });
    expect(body.org.name).toBe("Analytical Engines");
    expect(await rows("pending_signups", "firebase_uid", user.uid)).toBe(0);
    expect((await sessionStatus(body.token)).status).toBe(200);
  });

  it("creates the account and signs in at once when the address is already verified", async () => {
    const user = await passwordUser({ emailVerified: true });
    const response = await post(API_PATHS.signup, signupBody(user));
    expect(response.status).toBe(200);
    const body = v.parse(signupResponseSchema, response.body);
    expect(body).toMatchObject({
      requiresEmailVerification: false,
      message: TEXT.accountCreatedWelcome,
      user: { email: user.email, name: "Ada Lovelace", role: "owner" },
      org: { name: "Analytical Engines" },
    });
    expect(decodeJwt(body.token as string)).toMatchObject({
      provider: "email",
      orgName: "Analytical Engines",
    });
    expect((await sessionStatus(body.token as string)).status).toBe(200);
    expect(await rows("pending_signups", "firebase_uid", user.uid)).toBe(0);
    expect(await mailTo(user.email)).toEqual([]);
  });

  it("refuses an ID token of another address, and a GitHub identity, storing nothing", async () => {
    const user = await passwordUser({ emailVerified: false });
    const other = await post(API_PATHS.signup, { ...signupBody(user), email: uniqueEmail("other") });
    expect(other.status).toBe(401);
    const gitHub = await gitHubUser({
      emails: [{ email: uniqueEmail("gh"), primary: true, verified: true }],
    });
    const wrongKind = await post(API_PATHS.signup, signupBody(gitHub));
    expect(wrongKind.status).toBe(401);
    expect(await rows("pending_signups", "firebase_uid", user.uid)).toBe(0);
    expect(await rows("pending_signups", "firebase_uid", gitHub.uid)).toBe(0);
    expect(await mailTo(user.email)).toEqual([]);
  });
});

describe("GitHub signup and sign-in", () => {
  it("creates the account when GitHub lists the address as verified, and signs it in through /auth/login after", async () => {
    const user = await gitHubUser({
      name: "Octo Cat",
      emails: [{ email: uniqueEmail("octo"), primary: true, verified: true }],
    });
    const response = await post(API_PATHS.githubSignup, githubSignupBody(user));
    expect(response.status).toBe(200);
    const body = v.parse(signInResponseSchema, response.body);
    expect(body.user).toMatchObject({ email: user.email, name: "Octo Cat", role: "owner" });
    expect(body.org.name).toBe("Octo Cat's organization");
    expect(decodeJwt(body.token).provider).toBe("github");

    const again = await login(user, { oauthAccessToken: user.accessToken });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(body.user.id);
    // A second signup of the same identity signs in to the same account.
    const twice = await post(API_PATHS.githubSignup, githubSignupBody(user));
    expect(twice.body.user.id).toBe(body.user.id);
    expect(await rows("users", "email", user.email)).toBe(1);
  });

  it("creates nothing when GitHub says the address is unverified, or does not list it", async () => {
    const unverified = await gitHubUser({
      emails: [{ email: uniqueEmail("unv"), primary: true, verified: false }],
    });
    const missing = await gitHubUser({
      email: uniqueEmail("missing"),
      emails: [{ email: uniqueEmail("listed"), primary: true, verified: true }],
    });
    for (const user of [unverified, missing]) {
      const signup = await post(API_PATHS.githubSignup, githubSignupBody(user));
      expect(signup.status).toBe(403);
      expect(signup.body.code).toBe(ERROR_CODES.emailNotVerified);
      const signIn = await login(user, { oauthAccessToken: user.accessToken });
      expect(signIn.status).toBe(403);
      expect(await rows("users", "email", user.email)).toBe(0);
    }
  });

  it("refuses an access token of another GitHub account, or one GitHub does not know, with 401", async () => {
    const user = await gitHubUser({ emails: [{ email: uniqueEmail("a"), primary: true, verified: true }] });
    const other = await gitHubUser({ emails: [{ email: user.email, primary: true, verified: true }] });
    expect((await post(API_PATHS.githubSignup, githubSignupBody(user, other.accessToken))).status).toBe(401);
    expect((await post(API_PATHS.githubSignup, githubSignupBody(user, "gho_unknown"))).status).toBe(401);
    expect(await rows("users", "email", user.email)).toBe(0);
  });

  it("answers 404 to a GitHub sign-in without an account, even a verified one", async () => {
    const user = await gitHubUser({ emails: [{ email: uniqueEmail("new"), primary: true, verified: true }] });
    const response = await login(user, { oauthAccessToken: user.accessToken });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: ERRORS.gitHub.noAccount });
    expect(await rows("users", "email", user.email)).toBe(0);
  });
});

describe("POST /auth/login/{provider}", () => {
  async function accountWithGitHub(primaryVerified = true) {
    const user = await passwordUser({ emailVerified: true });
    const signup = await post(API_PATHS.signup, signupBody(user));
    expect(signup.status).toBe(200);
    const accessToken = github.addUser({
      id: ++githubIds,
      login: `octo${githubIds}`,
      name: null,
      emails: [
        { email: uniqueEmail("secondary"), primary: false, verified: true },
        { email: user.email, primary: true, verified: primaryVerified },
      ],
    });
    return { ...user, userId: signup.body.user.id as string, accessToken };
  }

  it("signs in to the account of GitHub's verified primary address; a code works once", async () => {
    const account = await accountWithGitHub();
    const code = github.issueCode(account.accessToken);
    const response = await post(API_PATHS.providerLogin("github"), { code });
    expect(response.status).toBe(200);
    const body = v.parse(signInResponseSchema, response.body);
    expect(body.user.id).toBe(account.userId);
    expect(decodeJwt(body.token).provider).toBe("github");
    expect((await sessionStatus(body.token)).status).toBe(200);

    const reused = await post(API_PATHS.providerLogin("github"), { code });
    expect(reused.status).toBe(401);
    expect(reused.body.token).toBeUndefined();
  });

  it("answers 401 'not allowed' without an account for the address, or when the primary address is unverified", async () => {
    const stranger = github.addUser({
      id: ++githubIds,
      login: "stranger",
      name: null,
      emails: [{ email: uniqueEmail("stranger"), primary: true, verified: true }],
    });
    const unverified = await accountWithGitHub(false);
    for (const accessToken of [stranger, unverified.accessToken]) {
      const response = await post(API_PATHS.providerLogin("github"), { code: github.issueCode(accessToken) });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: ERRORS.loginCallback.unauthorized });
    }
  });

  it("answers 401 to a bad code, 403 for a disabled user, 404 for an unknown provider and 502 when GitHub fails", async () => {
    const badCode = await post(API_PATHS.providerLogin("github"), { code: "not-a-code" });
    expect(badCode.status).toBe(401);
    expect(badCode.body.message).toMatch(/code/);

    const account = await accountWithGitHub();
    await updateEmulatorUser(emulator.host, emulator.projectId, account.uid, { disabled: true });
    const disabled = await post(API_PATHS.providerLogin("github"), {
      code: github.issueCode(account.accessToken),
    });
    expect(disabled.status).toBe(403);
    expect(disabled.body.code).toBe(ERROR_CODES.userDisabled);

    for (const path of [API_PATHS.providerLogin("gitlab"), API_PATHS.providerLogin("GitHub")]) {
      expect((await post(path, { code: "x" })).status, path).toBe(404);
    }

    github.failWith = 500;
    try {
      const failing = await post(API_PATHS.providerLogin("github"), { code: "any" });
      expect(failing.status).toBe(502);
    } finally {
      github.failWith = undefined;
    }
    expect(github.calls).toContain("POST /login/oauth/access_token");
  });
});

describe("resend-verification and forgot-password", () => {
  it("answer the same for any address, and mail only an unverified password account", async () => {
    const unverified = await passwordUser({ emailVerified: false });
    const verified = await passwordUser({ emailVerified: true });
    const unknown = uniqueEmail("nobody");
    const answers = [];
    for (const email of [unverified.email, verified.email, unknown]) {
      const response = await post(API_PATHS.resendVerification, { email });
      answers.push({ status: response.status, body: response.body });
    }
    for (const answer of answers) {
      expect(answer).toEqual({ status: 200, body: { message: ACCOUNT_MESSAGES.verificationSentIfAccount } });
    }
    const [mail, ...more] = await mailTo(unverified.email);
    expect(more).toEqual([]);
    await linkOf(mail as never, unverified.email, "/email-verified", "verifyEmail", "VERIFY_EMAIL");
    expect(await mailTo(verified.email)).toEqual([]);
    expect(await mailTo(unknown)).toEqual([]);
  });

  it("forgot-password answers the same for any address and mails a reset link only to an existing one", async () => {
    const known = await passwordUser({ emailVerified: true });
    const unknown = uniqueEmail("nobody");
    const first = await post(API_PATHS.forgotPassword, { email: known.email.toUpperCase() });
    const second = await post(API_PATHS.forgotPassword, { email: unknown });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: ACCOUNT_MESSAGES.resetSentIfAccount });
    expect({ status: second.status, body: second.body }).toEqual({ status: first.status, body: first.body });
    const [mail] = await mailTo(known.email);
    expect(mail?.subject).toBe("Reset your Argus password");
    await linkOf(mail as never, known.email, "/reset-password", "resetPassword", "PASSWORD_RESET");
    expect(await mailTo(unknown)).toEqual([]);
  });
});

describe("POST /auth/reset-password", () => {
  it("sets the new password at Firebase and ends every session of the user; the code works once", async () => {
    const user = await passwordUser({ emailVerified: true });
    const first = await login(user);
    const second = await login({ ...user, idToken: await idTokenOf(user.email) });
    expect([first.status, second.status]).toEqual([200, 200]);

    await post(API_PATHS.forgotPassword, { email: user.email });
    const [mail] = await mailTo(user.email);
    const oobCode = await linkOf(
      mail as never,
      user.email,
      "/reset-password",
      "resetPassword",
      "PASSWORD_RESET",
    );
    // The page checks the link before it shows the form: the check does not use the code.
    for (let i = 0; i < 2; i++) {
      const check = await post(API_PATHS.resetPasswordCheck, { oobCode });
      expect({ status: check.status, body: check.body }).toEqual({ status: 200, body: { success: true } });
    }
    secrets.add(NEW_PASSWORD);
    const response = await post(API_PATHS.resetPassword, { oobCode, newPassword: NEW_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: ACCOUNT_MESSAGES.passwordReset });

    for (const token of [first.body.token, second.body.token])
      expect((await sessionStatus(token)).status).toBe(401);
    await expect(signInOnEmulator(emulator.host, user.email, PASSWORD)).rejects.toThrow(/INVALID/);
    const again = await login({ ...user, idToken: await idTokenOf(user.email, NEW_PASSWORD) });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(first.body.user.id);
    expect((await sessionStatus(again.body.token)).status).toBe(200);

    const reused = await post(API_PATHS.resetPassword, { oobCode, newPassword: "Other-Phrase-Lion-43!" });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ error: ACCOUNT_MESSAGES.resetLinkInvalid });
    const used = await post(API_PATHS.resetPasswordCheck, { oobCode });
    expect({ status: used.status, body: used.body }).toEqual({
      status: 400,
      body: { error: ACCOUNT_MESSAGES.resetLinkInvalid },
    });
  });

  it("checks a link: an unknown or missing code is not a usable reset link (400)", async () => {
    const unknown = await post(API_PATHS.resetPasswordCheck, { oobCode: "no-such-code" });
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 400,
      body: { error: ACCOUNT_MESSAGES.resetLinkInvalid },
    });
    expect((await post(API_PATHS.resetPasswordCheck, {})).status).toBe(400);
  });

  it("answers 400 to an unknown code, and to a weak password before asking Firebase", async () => {
    const unknown = await post(API_PATHS.resetPassword, {
      oobCode: "no-such-code",
      newPassword: NEW_PASSWORD,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: ACCOUNT_MESSAGES.resetLinkInvalid });
    const weak = await post(API_PATHS.resetPassword, { oobCode: "no-such-code", newPassword: "weak" });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe(ERROR_CODES.invalidRequest);
  });
});

describe("mail through SMTP", () => {
  it("delivers the reset e-mail to the SMTP server with the right recipient, subject and link in text and HTML, and logs no code", async () => {
    const received: Array<{ from: string; to: string[]; raw: string }> = [];
    const smtp = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === "argus" && auth.password === "smtp-secret") callback(null, { user: "argus" });
        else callback(new Error("Invalid username or password"));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    smtp.listen(0, "127.0.0.1");
    await once(smtp.server, "listening");
    const { port } = smtp.server.address() as AddressInfo;
    const lines: string[] = [];
    const smtpBackend = await createBackend(
      loadConfig({
        ...emulatorEnv(),
        SMTP_URL: `smtp://argus:smtp-secret@127.0.0.1:${port}`,
        MAIL_FROM: "Argus <no-reply@argus.example.test>",
      }),
      { logger: testLogger(lines) },
    );
    try {
      const user = await passwordUser({ emailVerified: true });
      const response = await request(smtpBackend.app)
        .post(API_PATHS.forgotPassword)
        .send({ email: user.email });
      expect(response.status).toBe(200);
      await smtpBackend.settled();
      expect((await request(smtpBackend.app).get(API_PATHS.outbox)).status).toBe(404);

      expect(received).toHaveLength(1);
      const message = received[0] as (typeof received)[number];
      expect(message.from).toBe("no-reply@argus.example.test");
      expect(message.to).toEqual([user.email]);
      const parsed = await simpleParser(message.raw);
      expect(parsed.subject).toBe("Reset your Argus password");
      expect(parsed.to).toMatchObject({ value: [{ address: user.email }] });
      const text = parsed.text ?? "";
      const link = /https:\/\/\S+/.exec(text)?.[0] as string;
      // The HTML alternative carries the same link, as its button and written out.
      const hrefs = [...String(parsed.html).matchAll(/href="([^"]*)"/g)].map(([, href]) =>
        (href as string).replaceAll("&amp;", "&"),
      );
      expect(hrefs).toEqual([link, link]);
      const oobCode = await linkOf(
        { links: [link], text },
        user.email,
        "/reset-password",
        "resetPassword",
        "PASSWORD_RESET",
      );
      const logged = lines.join("");
      expect(logged).not.toContain(oobCode);
      expect(logged).not.toContain("smtp-secret");
    } finally {
      await smtpBackend.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});

describe("outbox", () => {
  const deployed = {
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    DATA_DIR: "memory://",
    FIREBASE_PROJECT_ID: "argus-prod",
    FIREBASE_API_KEY: "web-api-key",
    SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    BILLING_SANDBOX: "true",
    PUBLIC_ORIGIN,
  };

  it("does not exist in production without local mode, and GitHub code sign-in says it is not configured", async () => {
    const identity = createFakeIdentity();
    const production = await createBackend(loadConfig({ ...deployed, SMTP_URL: "smtp://127.0.0.1:9" }), {
      identity,
    });
    const local = await createBackend(loadConfig({ ...deployed, LOCAL_MODE: "true" }), { identity });
    try {
      const hidden = await request(production.app).get(API_PATHS.outbox);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ error: "Not found" });
      expect((await request(local.app).get(API_PATHS.outbox)).body).toEqual({ messages: [] });

      const unconfigured = await request(production.app)
        .post(API_PATHS.providerLogin("github"))
        .send({ code: "x" });
      expect(unconfigured.status).toBe(503);
      expect(unconfigured.body.error).toBe(ACCOUNT_MESSAGES.githubSignInUnavailable);
    } finally {
      await production.close();
      await local.close();
    }
  });
});

describe("logging", () => {
  it("never writes ID tokens, session tokens, GitHub tokens or secrets, or a password", async () => {
    await backend.settled();
    const logged = logLines.join("");
    expect(logged).toContain('"path":"/auth/reset-password"');
    expect(secrets.size).toBeGreaterThan(10);
    for (const secret of secrets) expect(logged).not.toContain(secret);
    expect(logged).not.toContain(PASSWORD);
  });
});
