import { Inbox } from "lucide-react";
import { href } from "react-router";
import { TEXT } from "../../../shared/contract/accounts.ts";
import { Button, ButtonLink, TextLink, useToast } from "../../components/ui";
import { useRootData } from "../../lib/root-data";
import { MailPanel, useResendVerification } from "./mail-panel";

/**
 * After an e-mail signup that needs verification (docs/product.md#signup): the address, a resend
 * button answered by toasts, a way to the login page and a spam-folder hint. In local mode the
 * e-mail is in the local outbox, so the page links there.
 */
export function CheckYourEmail({ email, message }: { email: string; message: string }) {
  const root = useRootData();
  const { toast } = useToast();
  const { sending, resend } = useResendVerification(email);

  async function resendWithToast() {
    const result = await resend();
    toast({ tone: result.ok ? "success" : "danger", title: result.message });
  }

  return (
    <MailPanel
      title={TEXT.checkYourEmail}
      actions={
        <div className="mt-6 space-y-2.5">
          <Button fullWidth loading={sending} onClick={resendWithToast}>
            {TEXT.resendVerification}
          </Button>
          <ButtonLink to={href("/login")} fullWidth>
            {TEXT.goToLogin}
          </ButtonLink>
        </div>
      }
    >
      <p className="mt-2 text-fg-muted text-sm">{message}</p>
      <p className="mt-3 text-fg-muted text-sm">We sent a verification link to</p>
      <p className="mt-1 break-all font-medium text-fg text-sm">{email}</p>
      <p className="mt-3 text-fg-muted text-sm">
        Can't find it? Check your spam or junk folder, or send it again.
      </p>
      {root?.localMode ? (
        <TextLink to={href("/outbox")} className="mt-3 inline-flex items-center gap-1.5 text-sm">
          <Inbox aria-hidden="true" className="size-4" />
          {TEXT.openOutbox}
        </TextLink>
      ) : null}
    </MailPanel>
  );
}
