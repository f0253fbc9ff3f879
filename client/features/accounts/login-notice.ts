/**
 * A message for /login carried in navigation state, after a password reset or an e-mail
 * verification (docs/product.md#reset-password, #email-verified). The state names the notice, not
 * its text, so only the product's own messages can appear.
 */
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { TEXT } from "../../../shared/contract/accounts.ts";

const NOTICES = {
  passwordReset: TEXT.passwordResetDone,
  emailVerified: TEXT.emailVerifiedDone,
} as const;
export type LoginNotice = keyof typeof NOTICES;

/** The navigation state that makes /login show a notice: `navigate("/login", { state })`. */
export function loginNoticeState(notice: LoginNotice): { notice: LoginNotice } {
  return { notice };
}

/**
 * The notice the navigation to this page carried. Read after hydration: history state is not
 * part of the server render, so reading it during the first render would not match the HTML.
 */
export function useLoginNotice(): string | undefined {
  const location = useLocation();
  const [message, setMessage] = useState<string>();
  useEffect(() => {
    const notice: unknown = (location.state as { notice?: unknown } | null)?.notice;
    setMessage(typeof notice === "string" && notice in NOTICES ? NOTICES[notice as LoginNotice] : undefined);
  }, [location.state]);
  return message;
}
