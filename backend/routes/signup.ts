/**
 * Creating accounts and signing in with GitHub: POST /auth/signup, POST /auth/github-signup and
 * POST /auth/login/{provider} (docs/product.md#signup, #oauthcallbackprovider). Identity is proven
 * by a Firebase ID token or a GitHub OAuth code, never by a uid in the body, and no account is
 * created from an address nobody verified (auth/accounts.ts).
 */
import type { Router } from "express";
import { NAME_MAX, ORG_NAME_MAX, SHORT_TEXT_MAX } from "../../shared/constants.ts";
import {
  ACCOUNT_MESSAGES,
  ERRORS,
  githubSignupRequestSchema,
  providerLoginRequestSchema,
  type SignInResponse,
  type SignupResponse,
  signupRequestSchema,
  TEXT,
} from "../../shared/contract/accounts.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import { findAccountByEmail, organizationNameFor } from "../auth/accounts.ts";
import { gitHubFailure, gitHubVouchesFor } from "../auth/github-address.ts";
import { tidyName } from "../auth/names.ts";
import { savePendingSignup } from "../auth/pending-signups.ts";
import {
  accountName,
  emailNotVerified,
  httpsUrl,
  identityUnavailable,
  notAuthorized,
  requireSameIdentity,
  signInIdentity,
  startSignedInSession,
  userDisabled,
  verifyIdentity,
} from "../auth/sign-in.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { IdentityError } from "../identity/firebase.ts";
import type { AuthDeps } from "./auth.ts";

/** The OAuth providers POST /auth/login/{provider} knows. */
const OAUTH_PROVIDERS = new Set(["github"]);

/** A signup field tidied like a name; nothing left after tidying is an invalid request. */
function tidyField(field: string, value: string, max: number): string {
  const tidy = tidyName(value, max);
  if (tidy === undefined) {
    throw new HttpError(400, {
      error: "Invalid request body",
      code: ERROR_CODES.invalidRequest,
      message: `${field}: must not be blank`,
    });
  }
  return tidy;
}

export function signupRouter(deps: AuthDeps): Router {
  const { db, identity, github, background, sendAccountMail } = deps;
  const router = strictRouter();

  router.post(API_PATHS.signup, async (req, res) => {
    const body = parseRequest(signupRequestSchema, req.body);
    const verified = await verifyIdentity(identity, body.idToken);
    const email = requireSameIdentity(verified, { email: body.email });
    if (verified.signInProvider !== "password") {
      throw notAuthorized("Signing up with an e-mail address needs an e-mail and password identity.");
    }
    const name = tidyField("name", body.name, NAME_MAX);
    const company = tidyField("company", body.company, ORG_NAME_MAX);

    if (verified.emailVerified) {
      const { created: _created, ...signedIn } = await signInIdentity(
        deps,
        req,
        { firebaseUid: verified.uid, email, emailVerified: true, avatarUrl: null, provider: "email" },
        { name, orgName: company },
      );
      res.json({
        ...signedIn,
        requiresEmailVerification: false,
        message: TEXT.accountCreatedWelcome,
      } satisfies SignupResponse);
      return;
    }

    // Not verified yet: keep the profile for the first verified sign-in, create nothing.
    await savePendingSignup(db, {
      firebaseUid: verified.uid,
      email,
      name,
      company,
      source: tidyField("source", body.source, SHORT_TEXT_MAX),
    });
    background.run(req.log, "signup verification e-mail", () => sendAccountMail("verifyEmail", email));
    res.json({
      requiresEmailVerification: true,
      message: TEXT.accountCreatedVerify,
    } satisfies SignupResponse);
  });

  router.post(API_PATHS.githubSignup, async (req, res) => {
    const body = parseRequest(githubSignupRequestSchema, req.body);
    const verified = await verifyIdentity(identity, body.idToken);
    const email = requireSameIdentity(verified, { email: body.email, uid: body.localId });
    if (verified.signInProvider !== "github.com") throw notAuthorized("This is not a GitHub identity.");
    if (!(await gitHubVouchesFor(github, verified, email, body.oauthAccessToken))) throw emailNotVerified();

    const name = accountName(verified.name, body.displayName ?? body.screenName, email);
    const { created: _created, ...answer } = await signInIdentity(
      deps,
      req,
      {
        firebaseUid: verified.uid,
        email,
        emailVerified: true,
        avatarUrl: httpsUrl(verified.picture) ?? body.photoURL ?? null,
        provider: "github",
      },
      { name, orgName: organizationNameFor(name) },
    );
    res.json(answer satisfies SignInResponse);
  });

  // The OAuth redirect's code (/oauth/callback/{provider}): signs in to an existing account only,
  // found by the primary address GitHub verified.
  router.post("/auth/login/:provider", async (req, res) => {
    if (!OAUTH_PROVIDERS.has(req.params.provider ?? "")) throw new HttpError(404, { error: "Not found" });
    const { code } = parseRequest(providerLoginRequestSchema, req.body);
    if (!github.canExchangeCodes) {
      throw new HttpError(503, {
        error: ACCOUNT_MESSAGES.githubSignInUnavailable,
        message: "Set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET on the backend.",
      });
    }
    let address: string | undefined;
    try {
      const accessToken = await github.exchangeCode(code);
      const emails = await github.emails(accessToken);
      address = emails.find((entry) => entry.primary && entry.verified)?.email.toLowerCase();
    } catch (error) {
      throw gitHubFailure(error);
    }
    const notAllowed = () => new HttpError(401, { error: ERRORS.loginCallback.unauthorized });
    const account = address === undefined ? undefined : await findAccountByEmail(db, address);
    if (!account) throw notAllowed();

    // The account's Firebase identity must still be in good standing, as on every refresh.
    const user = await identity.getUser(account.firebaseUid).catch((error: unknown) => {
      if (error instanceof IdentityError && error.reason === "unavailable") throw identityUnavailable();
      throw error;
    });
    if (!user) throw notAllowed();
    if (user.disabled) throw userDisabled();
    const answer = await startSignedInSession(deps, req, account, {
      provider: "github",
      firebaseUid: account.firebaseUid,
    });
    res.json(answer satisfies SignInResponse);
  });

  return router;
}
