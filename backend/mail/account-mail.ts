/**
 * The account e-mails: address verification and password reset. Firebase makes the one-time code
 * (identity/firebase.ts `actionLink`); the link in the e-mail is this app's own page, which applies
 * the code (docs/product.md#email-verified, #reset-password), not Firebase's hosted page.
 */
import escapeHtml from "escape-html";
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

/** What each e-mail says; the plain-text and HTML parts are both made from it. */
interface AccountMailCopy {
  subject: string;
  heading: string;
  /** Finishes "Follow this link to …". */
  purpose: string;
  /** The HTML part's button. */
  action: string;
  ignore: string;
}

const COPY: Record<ActionMode, (product: string) => AccountMailCopy> = {
  verifyEmail: (product) => ({
    subject: `Verify your e-mail address for ${product}`,
    heading: "Verify your e-mail address",
    purpose: `verify your e-mail address and finish creating your ${product} account`,
    action: "Verify e-mail address",
    ignore: `If you did not sign up for ${product}, you can ignore this e-mail.`,
  }),
  resetPassword: (product) => ({
    subject: `Reset your ${product} password`,
    heading: "Reset your password",
    purpose: `choose a new password for your ${product} account`,
    action: "Choose a new password",
    ignore:
      "If you did not ask to reset your password, you can ignore this e-mail; your password stays as it is.",
  }),
};

function plainText(copy: AccountMailCopy, link: string): string {
  return ["Hello,", "", `Follow this link to ${copy.purpose}:`, "", link, "", copy.ignore].join("\n");
}

/**
 * The HTML part: one column and inline styles, which is what mail clients render alike; the link
 * is written out under the button too, for clients that show no buttons.
 */
function html(copy: AccountMailCopy, product: string, link: string): string {
  const [name, heading, purpose, action, ignore, href] = [
    product,
    copy.heading,
    copy.purpose,
    copy.action,
    copy.ignore,
    link,
  ].map(escapeHtml);
  const text = "color:#1f2430;font-size:15px;line-height:1.6;margin:0 0 16px";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${heading}</title></head>
<body style="margin:0;padding:0;background:#f4f5f8;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f8;padding:32px 16px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border:1px solid #e3e5eb;border-radius:8px">
<tr><td style="padding:32px">
<p style="color:#4353d6;font-size:16px;font-weight:700;margin:0 0 24px">${name}</p>
<h1 style="color:#1f2430;font-size:20px;line-height:1.3;margin:0 0 16px">${heading}</h1>
<p style="${text}">Hello,</p>
<p style="${text}">Follow this link to ${purpose}:</p>
<p style="margin:24px 0"><a href="${href}" style="background:#4353d6;border-radius:6px;color:#ffffff;display:inline-block;font-size:15px;font-weight:600;padding:12px 20px;text-decoration:none">${action}</a></p>
<p style="color:#5b6170;font-size:13px;line-height:1.6;margin:0 0 16px">Or paste this link into your browser:<br><a href="${href}" style="color:#4353d6;word-break:break-all">${href}</a></p>
<p style="color:#5b6170;font-size:13px;line-height:1.6;margin:0">${ignore}</p>
</td></tr></table>
</td></tr></table>
</body></html>`;
}

export function accountMail(mode: ActionMode, to: string, link: string, productName: string): MailMessage {
  const copy = COPY[mode](productName);
  return {
    to,
    subject: copy.subject,
    text: plainText(copy, link),
    html: html(copy, productName, link),
    links: [link],
  };
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
