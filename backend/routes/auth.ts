/** Sign-in, refresh, session status and logout (docs/product.md#api, docs/architecture.md#session). */
import type { Response, Router } from "express";
import { NAME_MAX, URL_MAX } from "../../shared/constants.ts";
import {
  API_PATHS,
  ERROR_CODES,
  type ErrorBody,
  loginRequestSchema,
  type Provider,
  type SignInResponse,
} from "../../shared/contract.ts";
import { ERRORS } from "../../shared/messages.ts";
import { EmailNotVerifiedError, signInAccount } from "../auth/accounts.ts";
import { tidyName } from "../auth/names.ts";
import { INVALID_SESSION_MESSAGE, invalidSessionError, missingTokenError } from "../auth/require-session.ts";
import { epochSeconds, InvalidSessionToken, type SessionTokens } from "../auth/session-tokens.ts";
import {
  AccountRelinkedError,
  authenticateSession,
  revokeSession,
  revokeUserSessions,
  type SessionContext,
  sessionIdentity,
  startSession,
} from "../auth/sessions.ts";
import type { Db } from "../db/database.ts";
import { bearerToken } from "../http/bearer.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { IdentityError, type IdentityVerifier, type VerifiedIdentity } from "../identity/firebase.ts";

const PROVIDERS: Record<string, Provider> = { password: "email", "github.com": "github" };

const notAuthorized = (message: string) => new HttpError(401, { error: ERRORS.notAuthorized, message });

const identityUnavailable = () =>
  new HttpError(503, { error: "Identity service unavailable", code: ERROR_CODES.identityUnavailable });

const emailNotVerified = () =>
  new HttpError(403, {
    error: "Email not verified",
    code: ERROR_CODES.emailNotVerified,
    message: "Please verify your email address before signing in.",
  } satisfies ErrorBody);

async function verifyIdentity(identity: IdentityVerifier, idToken: string): Promise<VerifiedIdentity> {
  try {
    return await identity.verifyIdToken(idToken);
  } catch (error) {
    if (!(error instanceof IdentityError)) throw error;
    if (error.reason === "disabled") {
      throw new HttpError(403, { error: ERRORS.accessDenied, code: ERROR_CODES.userDisabled });
    }
    if (error.reason === "unavailable") throw identityUnavailable();
    if (error.reason === "revoked") {
      throw notAuthorized("The ID token has been revoked. Please sign in again.");
    }
    throw notAuthorized("The ID token is invalid or expired.");
  }
}

/** An https URL within the contract's bound, or undefined (the identity provider's picture may be anything). */
function httpsUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.length > URL_MAX || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === "https:" ? url.href : undefined;
}

/**
 * Whether the user of a live session may keep it: asks the identity provider (Firebase) about the
 * identity the user is linked to. Disabled or deleted there: every session of the user ends and
 * this call answers 401. Firebase unreachable: 503, so the gateway keeps the still-valid session
 * and tries again later.
 */
async function requireIdentityInGoodStanding(
  db: Db,
  identity: IdentityVerifier,
  session: SessionContext,
): Promise<void> {
  let user: Awaited<ReturnType<IdentityVerifier["getUser"]>>;
  try {
    user = await identity.getUser(session.firebaseUid);
  } catch (error) {
    if (error instanceof IdentityError && error.reason === "unavailable") throw identityUnavailable();
    throw error;
  }
  if (user && !user.disabled) return;
  await revokeUserSessions(db, session.user.id);
  throw new HttpError(
    401,
    user?.disabled
      ? { error: INVALID_SESSION_MESSAGE, code: ERROR_CODES.userDisabled }
      : { error: INVALID_SESSION_MESSAGE },
  );
}

/** Answers of the session-status check are about this one moment: never stored by anyone. */
function noStore(res: Response): void {
  res.set("Cache-Control", "no-store");
}

export function authRouter(deps: { db: Db; identity: IdentityVerifier; tokens: SessionTokens }): Router {
  const { db, identity, tokens } = deps;
  const router = strictRouter();

  router.post(API_PATHS.login, async (req, res) => {
    const body = parseRequest(loginRequestSchema, req.body);
    const verified = await verifyIdentity(identity, body.idToken);
    const email = body.email.toLowerCase();
    if (verified.uid !== body.firebase_uid || verified.email?.toLowerCase() !== email) {
      throw notAuthorized("The ID token does not belong to this account.");
    }
    const provider = PROVIDERS[verified.signInProvider];
    if (!provider) throw notAuthorized("This sign-in method is not supported.");
    // Every provider, every account: see the rule in auth/accounts.ts.
    if (!verified.emailVerified) throw emailNotVerified();

    // The verified identity's name wins; the client's is only a fallback for an identity without
    // one. Either way it is tidied and bounded before it is stored or signed into a token.
    const name =
      tidyName(verified.name, NAME_MAX) ??
      tidyName(body.name, NAME_MAX) ??
      tidyName(email.split("@")[0], NAME_MAX) ??
      email;
    const account = await signInAccount(db, {
      firebaseUid: verified.uid,
      email,
      emailVerified: verified.emailVerified,
      name,
      avatarUrl: httpsUrl(verified.picture) ?? body.avatar_url ?? null,
      provider,
    }).catch((error: unknown) => {
      if (error instanceof EmailNotVerifiedError) throw emailNotVerified();
      throw error;
    });
    if (account.relinked) {
      req.log.warn({ userId: account.user.id }, "account linked to another identity; its sessions revoked");
    }

    const authTime = epochSeconds();
    const sid = await startSession(db, {
      userId: account.user.id,
      provider,
      authTime,
      firebaseUid: verified.uid,
    }).catch((error: unknown) => {
      if (error instanceof AccountRelinkedError) {
        throw notAuthorized("This account was just linked to another sign-in. Please sign in again.");
      }
      throw error;
    });
    const token = await tokens.mint(sessionIdentity({ ...account, sid, provider, authTime }), authTime);
    req.log.info({ userId: account.user.id, orgId: account.org.id, created: account.created }, "signed in");
    res.json({
      token,
      user: account.user,
      org: { org_id: account.org.id, name: account.org.name },
    } satisfies SignInResponse);
  });

  router.post(API_PATHS.refresh, async (req, res) => {
    const token = bearerToken(req);
    if (!token) throw missingTokenError();
    const session = await authenticateSession(db, tokens, token);
    if (!session) throw invalidSessionError();
    await requireIdentityInGoodStanding(db, identity, session);
    res.json({ token: await tokens.mint(sessionIdentity(session)) });
  });

  // Polled by the gateway (every few seconds per session at most): one query by primary keys, no
  // identity provider call. Refresh is where the identity provider is asked.
  router.get(API_PATHS.sessionStatus, async (req, res) => {
    noStore(res);
    const token = bearerToken(req);
    if (!token) throw missingTokenError();
    if (!(await authenticateSession(db, tokens, token))) throw invalidSessionError();
    res.status(204).end();
  });

  router.post(API_PATHS.logout, async (req, res) => {
    const token = bearerToken(req);
    if (!token) throw missingTokenError();
    try {
      const claims = await tokens.verify(token);
      await revokeSession(db, claims.sid, claims.sub);
    } catch (error) {
      if (error instanceof InvalidSessionToken) throw invalidSessionError();
      throw error;
    }
    res.status(204).end();
  });

  return router;
}
