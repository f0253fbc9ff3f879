/** Sign-in, refresh, session status and logout (docs/product.md#api, docs/architecture.md#session). */
import type { Router } from "express";
import {
  ERRORS,
  loginRequestSchema,
  type SessionNames,
  type SignInResponse,
} from "../../shared/contract/accounts.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import { type NewAccount, NoAccountError, organizationNameFor } from "../auth/accounts.ts";
import { gitHubVouchesFor } from "../auth/github-address.ts";
import { findPendingSignup } from "../auth/pending-signups.ts";
import { INVALID_SESSION_MESSAGE, invalidSessionError, missingTokenError } from "../auth/require-session.ts";
import { InvalidSessionToken, type SessionTokens } from "../auth/session-tokens.ts";
import {
  authenticateSession,
  revokeSession,
  revokeUserSessions,
  type SessionContext,
  sessionIdentity,
} from "../auth/sessions.ts";
import {
  accountName,
  emailNotVerified,
  httpsUrl,
  identityUnavailable,
  notAuthorized,
  PROVIDERS,
  requireSameIdentity,
  signInIdentity,
  verifyIdentity,
} from "../auth/sign-in.ts";
import type { TrialTerms } from "../billing/subscriptions.ts";
import type { GitHubClient } from "../code-hosts/github/api-client.ts";
import type { Db } from "../db/database.ts";
import type { BackgroundTasks } from "../http/background.ts";
import { bearerToken } from "../http/bearer.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { type Identity, IdentityError, type IdentityVerifier } from "../identity/firebase.ts";
import type { SendAccountMail } from "../mail/account-mail.ts";

/** What the /auth routers need (this one, signup.ts and password.ts). */
export interface AuthDeps {
  db: Db;
  identity: Identity;
  tokens: SessionTokens;
  github: GitHubClient;
  /** Work done after the answer (e-mails). */
  background: BackgroundTasks;
  sendAccountMail: SendAccountMail;
  /** The terms of the Pro trial a new organisation starts. */
  trial: TrialTerms;
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

export function authRouter(deps: AuthDeps): Router {
  const { db, identity, tokens } = deps;
  const router = strictRouter();

  router.post(API_PATHS.login, async (req, res) => {
    const body = parseRequest(loginRequestSchema, req.body);
    const verified = await verifyIdentity(identity, body.idToken);
    const email = requireSameIdentity(verified, { email: body.email, uid: body.firebase_uid });
    const provider = PROVIDERS[verified.signInProvider];
    if (!provider) throw notAuthorized("This sign-in method is not supported.");
    // Every provider, every account: see the rule in auth/accounts.ts. For GitHub addresses,
    // GitHub's word counts (auth/github-address.ts).
    const emailVerified =
      provider === "github"
        ? await gitHubVouchesFor(deps.github, verified, email, body.oauthAccessToken)
        : verified.emailVerified;
    if (!emailVerified) throw emailNotVerified();

    // A password identity's first verified sign-in creates its account, from its signup profile
    // when it has one; a GitHub identity signs up first (POST /auth/github-signup).
    let newAccount: NewAccount | undefined;
    if (provider === "email") {
      const pending = await findPendingSignup(db, verified.uid);
      const name = accountName(verified.name, body.name, email);
      newAccount = pending
        ? { name: pending.name, orgName: pending.company }
        : { name, orgName: organizationNameFor(name) };
    }
    const { created: _created, ...answer } = await signInIdentity(
      deps,
      req,
      {
        firebaseUid: verified.uid,
        email,
        emailVerified,
        avatarUrl: httpsUrl(verified.picture) ?? body.avatar_url ?? null,
        provider,
      },
      newAccount,
    ).catch((error: unknown) => {
      if (error instanceof NoAccountError) throw new HttpError(404, { error: ERRORS.gitHub.noAccount });
      throw error;
    });
    res.json(answer satisfies SignInResponse);
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
  // identity provider call. Refresh is where the identity provider is asked. The names are the
  // rows' (the query joins them anyway): pages show them rather than the token's.
  router.get(API_PATHS.sessionStatus, async (req, res) => {
    const token = bearerToken(req);
    if (!token) throw missingTokenError();
    const session = await authenticateSession(db, tokens, token);
    if (!session) throw invalidSessionError();
    const { name, orgName } = sessionIdentity(session);
    res.json({ name, orgName } satisfies SessionNames);
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
