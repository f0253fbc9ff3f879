/**
 * The account e-mails: address verification and password reset. Firebase makes the one-time code
 * (identity/firebase.ts `actionLink`); the link in the e-mail is this app's own page, which applies
 * the code (docs/product.md#email-verified, #reset-password), not Firebase's hosted page.
 */
import { ACCOUNT_EMAIL_PAGES } from "../../shared/constants.ts";
import type { ActionMode, Identity } from "../identity/firebase.ts";
import type { Mailer, MailMessage } from "./mailer.ts";

/** The app's link for a Firebase action link: same mode and oobCode, on PUBLIC_ORIGIN. */
export function appActionLink(mode: ActionMode, firebaseLink: string, publicOrigin: string): string {
  const generated = new URL(firebaseLink);
  const oobCode = generated.searchParams.get("oobCode");
  if (!oobCode || generated.searchParams.get("mode") !== mode) {
    throw new Error(`The identity provider's ${mode} link has no ${mode} code`);
  }
  const link = new URL(ACCOUNT_EMAIL_PAGES[mode], publicOrigin);
  link.searchParams.set("mode", mode);
  link.searchParams.set("oobCode", oobCode);
  return link.href;
}

const TEMPLATES: Record<ActionMode, (product: string, link: string) => { subject: string; text: string }> = {
  verifyEmail: (product, link) => ({
    subject: `Verify your e-mail address for ${product}`,
    text: [
      "Hello,",
      "",
      `Follow this link to verify your e-mail address and finish creating your ${product} account:`,
      "",
      link,
      "",
      `If you did not sign up for ${product}, you can ignore this e-mail.`,
    ].join("\n"),
  }),
  resetPassword: (product, link) => ({
    subject: `Reset your ${product} password`,
    text: [
      "Hello,",
      "",
      `Follow this link to choose a new password for your ${product} account:`,
      "",
      link,
      "",
      "If you did not ask to reset your password, you can ignore this e-mail; your password stays as it is.",
    ].join("\n"),
  }),
};

function accountMail(mode: ActionMode, to: string, link: string, productName: string): MailMessage {
  return { to, ...TEMPLATES[mode](productName, link), links: [link] };
}

/** Sends the verification or reset e-mail to an address the identity provider knows. */
export type SendAccountMail = (mode: ActionMode, email: string) => Promise<void>;

export function accountMailSender(deps: {
  identity: Identity;
  mailer: Mailer;
  publicOrigin: string;
  productName: string;
}): SendAccountMail {
  return async (mode, email) => {
    const link = appActionLink(mode, await deps.identity.actionLink(mode, email), deps.publicOrigin);
    await deps.mailer.send(accountMail(mode, email, link, deps.productName));
  };
}
