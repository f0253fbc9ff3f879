import { Inbox, MailCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ERRORS, TEXT } from "../../../shared/messages.ts";
import { loadAuthApi } from "../../lib/lazy-auth";
import { useRootData } from "../../lib/root-data";
import { Button, ButtonLink, Card, TextLink, useToast } from "../ui";

/**
 * After an e-mail signup that needs verification (docs/product.md#signup): the address, a resend
 * button answered by toasts, a way to the login page and a spam-folder hint. In local mode the
 * e-mail is in the local outbox, so the page links there.
 */
export function CheckYourEmail({ email, message }: { email: string; message: string }) {
  const root = useRootData();
  const { toast } = useToast();
  const [sending, setSending] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Replaces the form the user was in: move focus so the change is announced.
  useEffect(() => headingRef.current?.focus(), []);

  async function resend() {
    setSending(true);
    try {
      const { resendVerification } = await loadAuthApi();
      const result = await resendVerification(email);
      toast({ tone: result.ok ? "success" : "danger", title: result.message });
    } catch {
      toast({ tone: "danger", title: ERRORS.verificationResendFailed });
    }
    setSending(false);
  }

  return (
    <Card className="p-6 sm:p-8">
      <div className="flex flex-col items-center text-center">
        <div
          aria-hidden="true"
          className="mb-4 flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent-text"
        >
          <MailCheck className="size-6" />
        </div>
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="font-semibold text-fg text-xl tracking-tight outline-none"
        >
          {TEXT.checkYourEmail}
        </h1>
        <p className="mt-2 text-fg-muted text-sm">{message}</p>
        <p className="mt-3 text-fg-muted text-sm">We sent a verification link to</p>
        <p className="mt-1 break-all font-medium text-fg text-sm">{email}</p>
        <p className="mt-3 text-fg-muted text-sm">
          Can't find it? Check your spam or junk folder, or send it again.
        </p>
        {root?.localMode ? (
          <TextLink to="/outbox" className="mt-3 inline-flex items-center gap-1.5 text-sm">
            <Inbox aria-hidden="true" className="size-4" />
            {TEXT.openOutbox}
          </TextLink>
        ) : null}
      </div>

      <div className="mt-6 space-y-2.5">
        <Button fullWidth loading={sending} onClick={resend}>
          {TEXT.resendVerification}
        </Button>
        <ButtonLink to="/login" fullWidth>
          {TEXT.goToLogin}
        </ButtonLink>
      </div>
    </Card>
  );
}
