/**
 * E-mail verification and password reset: POST /auth/resend-verification, /auth/forgot-password and
 * /auth/reset-password (docs/product.md#forgot-password, #reset-password). The first two answer the
 * same thing at once for any address and do the lookup and sending afterwards, so neither their
 * answer nor its timing says whether the address has an account (docs/security.md).
 */

import type { Router } from "express";
import type * as v from "valibot";
import {
  ACCOUNT_MESSAGES,
  emailRequestSchema,
  resetCodeCheckRequestSchema,
  resetPasswordRequestSchema,
} from "../../shared/contract/accounts.ts";
import type { messageResponseSchema, successResponseSchema } from "../../shared/contract/common.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { findAccountByEmail } from "../auth/accounts.ts";
import { revokeUserSessions } from "../auth/sessions.ts";
import { identityUnavailable, userDisabled } from "../auth/sign-in.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { IdentityError, PasswordResetError } from "../identity/firebase.ts";
import type { AuthDeps } from "./auth.ts";

type MessageResponse = v.InferOutput<typeof messageResponseSchema>;
type SuccessResponse = v.InferOutput<typeof successResponseSchema>;

export function passwordRouter(deps: AuthDeps): Router {
  const { db, identity, background, sendAccountMail } = deps;
  const router = strictRouter();

  router.post(API_PATHS.resendVerification, (req, res) => {
    const email = parseRequest(emailRequestSchema, req.body).email.toLowerCase();
    res.json({ message: ACCOUNT_MESSAGES.verificationSentIfAccount } satisfies MessageResponse);
    background.run(req.log, "verification e-mail", async () => {
      const user = await identity.findUserByEmail(email);
      // Only a password identity has an address to verify; GitHub's are GitHub's to verify.
      if (!user || user.disabled || user.emailVerified || !user.providerIds.includes("password")) return;
      await sendAccountMail("verifyEmail", email);
    });
  });

  router.post(API_PATHS.forgotPassword, (req, res) => {
    const email = parseRequest(emailRequestSchema, req.body).email.toLowerCase();
    res.json({ message: ACCOUNT_MESSAGES.resetSentIfAccount } satisfies MessageResponse);
    background.run(req.log, "password reset e-mail", async () => {
      const user = await identity.findUserByEmail(email);
      if (!user || user.disabled) return;
      await sendAccountMail("resetPassword", email);
    });
  });

  /** Identity failures of a reset or its check, as the answers the reset page shows. */
  const resetRefusal = (error: unknown): never => {
    if (error instanceof PasswordResetError) {
      throw new HttpError(400, {
        error:
          error.reason === "invalid-code"
            ? ACCOUNT_MESSAGES.resetLinkInvalid
            : ACCOUNT_MESSAGES.resetPasswordRefused,
      });
    }
    if (error instanceof IdentityError && error.reason === "disabled") throw userDisabled();
    if (error instanceof IdentityError && error.reason === "unavailable") throw identityUnavailable();
    throw error;
  };

  // The reset page asks before showing its form, so a used or expired link says so at once.
  router.post(API_PATHS.resetPasswordCheck, async (req, res) => {
    const { oobCode } = parseRequest(resetCodeCheckRequestSchema, req.body);
    await identity.checkResetCode(oobCode).catch(resetRefusal);
    res.json({ success: true } satisfies SuccessResponse);
  });

  router.post(API_PATHS.resetPassword, async (req, res) => {
    const { oobCode, newPassword } = parseRequest(resetPasswordRequestSchema, req.body);
    const email = await identity.resetPassword(oobCode, newPassword).catch(resetRefusal);

    // A new password ends every session: ours first (they are what keeps anyone signed in to the
    // product), then Firebase's ID and refresh tokens, which only the sign-in pages hold, briefly.
    const account = await findAccountByEmail(db, email.toLowerCase());
    if (account) await revokeUserSessions(db, account.user.id);
    try {
      const user = await identity.findUserByEmail(email.toLowerCase());
      if (user) await identity.revokeTokens(user.uid);
    } catch (error) {
      // The password has changed already; the answer must say so, the log that Firebase did not revoke.
      req.log.error(
        { err: error, userId: account?.user.id },
        "password reset, but Firebase tokens not revoked",
      );
    }
    req.log.info({ userId: account?.user.id }, "password reset; sessions revoked");
    res.json({ success: true, message: ACCOUNT_MESSAGES.passwordReset } satisfies SuccessResponse);
  });

  return router;
}
