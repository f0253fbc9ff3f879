/**
 * What every sign-in shares, whichever call it comes through (POST /auth/login, /auth/signup,
 * /auth/github-signup, /auth/login/{provider}): checking the Firebase ID token, the account rule of
 * accounts.ts, a new session row and the signed token, and the errors each step answers with.
 */
import type { Request } from "express";
import { NAME_MAX, URL_MAX } from "../../shared/constants.ts";
import type { Provider, SignInResponse } from "../../shared/contract/accounts.ts";
import { ERRORS } from "../../shared/contract/accounts.ts";
import type { ErrorBody } from "../../shared/contract/common.ts";
import { ERROR_CODES } from "../../shared/contract/common.ts";
import type { TrialTerms } from "../billing/subscriptions.ts";
import type { Db } from "../db/database.ts";
import { HttpError } from "../http/errors.ts";
import { IdentityError, type IdentityVerifier, type VerifiedIdentity } from "../identity/firebase.ts";
import { EmailNotVerifiedError, type NewAccount, type SignInIdentity, signInAccount } from "./accounts.ts";
import { tidyName } from "./names.ts";
import { epochSeconds, type SessionTokens } from "./session-tokens.ts";
import { AccountRelinkedError, type SessionContext, sessionIdentity, startSession } from "./sessions.ts";

/** Firebase's sign_in_provider, as the product names it. */
export const PROVIDERS: Record<string, Provider> = { password: "email", "github.com": "github" };

export const notAuthorized = (message: string) =>
  new HttpError(401, { error: ERRORS.notAuthorized, message });

export const identityUnavailable = () =>
  new HttpError(503, { error: "Identity service unavailable", code: ERROR_CODES.identityUnavailable });

export const emailNotVerified = () =>
  new HttpError(403, {
    error: "Email not verified",
    code: ERROR_CODES.emailNotVerified,
    message: "Please verify your email address before signing in.",
  } satisfies ErrorBody);

export const userDisabled = () =>
  new HttpError(403, { error: ERRORS.accessDenied, code: ERROR_CODES.userDisabled });

export async function verifyIdentity(identity: IdentityVerifier, idToken: string): Promise<VerifiedIdentity> {
  try {
    return await identity.verifyIdToken(idToken);
  } catch (error) {
    if (!(error instanceof IdentityError)) throw error;
    if (error.reason === "disabled") throw userDisabled();
    if (error.reason === "unavailable") throw identityUnavailable();
    if (error.reason === "revoked") {
      throw notAuthorized("The ID token has been revoked. Please sign in again.");
    }
    throw notAuthorized("The ID token is invalid or expired.");
  }
}

/** The ID token must be the one of the address (and uid, when the body names one) the body claims. */
export function requireSameIdentity(
  verified: VerifiedIdentity,
  claimed: { email: string; uid?: string },
): string {
  const email = claimed.email.toLowerCase();
  if (
    (claimed.uid !== undefined && verified.uid !== claimed.uid) ||
    verified.email?.toLowerCase() !== email
  ) {
    throw notAuthorized("The ID token does not belong to this account.");
  }
  return email;
}

/**
 * The verified identity's name wins; the client's is only a fallback for an identity without one.
 * Either way it is tidied and bounded before it is stored or signed into a token.
 */
export function accountName(
  verifiedName: string | undefined,
  clientName: string | null | undefined,
  email: string,
) {
  return (
    tidyName(verifiedName, NAME_MAX) ??
    tidyName(clientName ?? undefined, NAME_MAX) ??
    tidyName(email.split("@")[0], NAME_MAX) ??
    email
  );
}

/** An https URL within the contract's bound, or undefined (the identity provider's picture may be anything). */
export function httpsUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.length > URL_MAX || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === "https:" ? url.href : undefined;
}

interface SignInDeps {
  db: Db;
  tokens: SessionTokens;
  /** The terms of the Pro trial a new organisation starts. */
  trial: TrialTerms;
}

/** Starts a session of the account and answers like every sign-in: the token and who signed in. */
export async function startSignedInSession(
  deps: SignInDeps,
  req: Request,
  account: Omit<SessionContext, "sid" | "provider" | "authTime" | "firebaseUid" | "readVersion">,
  session: { provider: Provider; firebaseUid: string },
): Promise<SignInResponse> {
  const authTime = epochSeconds();
  const sid = await startSession(deps.db, {
    userId: account.user.id,
    provider: session.provider,
    authTime,
    firebaseUid: session.firebaseUid,
  }).catch((error: unknown) => {
    if (error instanceof AccountRelinkedError) {
      throw notAuthorized("This account was just linked to another sign-in. Please sign in again.");
    }
    throw error;
  });
  const token = await deps.tokens.mint(
    sessionIdentity({ ...account, sid, provider: session.provider, authTime }),
    authTime,
  );
  req.log.info({ userId: account.user.id, orgId: account.org.id, provider: session.provider }, "signed in");
  return { token, user: account.user, org: { org_id: account.org.id, name: account.org.name } };
}

/**
 * Signs a verified identity in to its account (accounts.ts), creating it as `newAccount` says when
 * there is none, and starts the session. NoAccountError passes through for the caller to answer.
 */
export async function signInIdentity(
  deps: SignInDeps,
  req: Request,
  identity: SignInIdentity,
  newAccount: NewAccount | undefined,
): Promise<SignInResponse & { created: boolean }> {
  const account = await signInAccount(deps.db, identity, newAccount, deps.trial).catch((error: unknown) => {
    if (error instanceof EmailNotVerifiedError) throw emailNotVerified();
    throw error;
  });
  if (account.relinked) {
    req.log.warn({ userId: account.user.id }, "account linked to another identity; its sessions revoked");
  }
  if (account.created) req.log.info({ userId: account.user.id, orgId: account.org.id }, "account created");
  const answer = await startSignedInSession(deps, req, account, {
    provider: identity.provider,
    firebaseUid: identity.firebaseUid,
  });
  return { ...answer, created: account.created };
}
