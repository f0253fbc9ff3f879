/** Sign-in, refresh and logout (spec section 7, ARCHITECTURE.md "Session and security"). */
import { Router } from "express";
import {
  API_PATHS,
  type ErrorBody,
  loginRequestSchema,
  type Provider,
  type SignInResponse,
} from "../../shared/contract.ts";
import { ERRORS } from "../../shared/messages.ts";
import { EmailTakenError, signInAccount } from "../auth/accounts.ts";
import { invalidSessionError, missingTokenError } from "../auth/require-session.ts";
import { epochSeconds, InvalidSessionToken, type SessionTokens } from "../auth/session-tokens.ts";
import { authenticateSession, revokeSession, sessionIdentity, startSession } from "../auth/sessions.ts";
import type { Db } from "../db/database.ts";
import { bearerToken } from "../http/bearer.ts";
import { HttpError } from "../http/errors.ts";
import { parseRequest } from "../http/validate.ts";
import { IdentityError, type IdentityVerifier, type VerifiedIdentity } from "../identity/firebase.ts";

const PROVIDERS: Record<string, Provider> = { password: "email", "github.com": "github" };

const notAuthorized = (message: string) => new HttpError(401, { error: ERRORS.notAuthorized, message });

async function verifyIdentity(identity: IdentityVerifier, idToken: string): Promise<VerifiedIdentity> {
  try {
    return await identity.verifyIdToken(idToken);
  } catch (error) {
    if (!(error instanceof IdentityError)) throw error;
    if (error.reason === "disabled") {
      throw new HttpError(403, { error: ERRORS.accessDenied, code: "USER_DISABLED" });
    }
    if (error.reason === "unavailable") {
      throw new HttpError(503, { error: "Identity service unavailable" });
    }
    throw notAuthorized("The ID token is invalid or expired.");
  }
}

export function authRouter(deps: { db: Db; identity: IdentityVerifier; tokens: SessionTokens }): Router {
  const { db, identity, tokens } = deps;
  const router = Router();

  router.post(API_PATHS.login, async (req, res) => {
    const body = parseRequest(loginRequestSchema, req.body);
    const verified = await verifyIdentity(identity, body.idToken);
    const email = body.email.toLowerCase();
    if (verified.uid !== body.firebase_uid || verified.email?.toLowerCase() !== email) {
      throw notAuthorized("The ID token does not belong to this account.");
    }
    const provider = PROVIDERS[verified.signInProvider];
    if (!provider) throw notAuthorized("This sign-in method is not supported.");
    // GitHub vouches for its own addresses; a password account must prove its address first.
    if (provider === "email" && !verified.emailVerified) {
      throw new HttpError(403, {
        error: "Email not verified",
        code: "EMAIL_NOT_VERIFIED",
        message: "Please verify your email address before signing in.",
      } satisfies ErrorBody);
    }

    const account = await signInAccount(db, {
      firebaseUid: verified.uid,
      email,
      emailVerified: verified.emailVerified,
      name: body.name?.trim() || verified.name?.trim() || email.split("@")[0] || email,
      avatarUrl: body.avatar_url ?? verified.picture ?? null,
      provider,
    }).catch((error: unknown) => {
      if (!(error instanceof EmailTakenError)) throw error;
      throw new HttpError(409, {
        error: "Account already exists",
        code: "EMAIL_IN_USE",
        message: "Another sign-in method already uses this email address.",
      });
    });

    const authTime = epochSeconds();
    const sid = await startSession(db, { userId: account.user.id, provider, authTime });
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
    res.json({ token: await tokens.mint(sessionIdentity(session)) });
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
