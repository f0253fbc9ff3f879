import { MailCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ERRORS, TEXT } from "../../../shared/messages.ts";
import { loadAuthApi } from "../../lib/lazy-auth";
import { Alert, Button, Card } from "../ui";

/**
 * Shown instead of a sign-in or sign-up form when the backend says the e-mail is not verified yet
 * (docs/product.md#login and #signup).
 */
export function VerificationRequired({
  email,
  onBack,
  backLabel = TEXT.backToLogin,
}: {
  email: string;
  onBack: () => void;
  backLabel?: string;
}) {
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The panel replaces the form the user was in: move focus to it so the change is announced.
  useEffect(() => headingRef.current?.focus(), []);

  async function resend() {
    setSending(true);
    setResult(null);
    try {
      const { resendVerification } = await loadAuthApi();
      setResult(await resendVerification(email));
    } catch {
      setResult({ ok: false, message: ERRORS.verificationResendFailed });
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
          Verify your email
        </h1>
        <p className="mt-2 text-fg-muted text-sm">
          Your email address has not been verified yet. Open the link we sent to
        </p>
        <p className="mt-1 break-all font-medium text-fg text-sm">{email}</p>
        <p className="mt-1 text-fg-muted text-sm">
          then sign in again. Check your spam folder if you cannot find it.
        </p>
      </div>

      {result ? (
        <Alert tone={result.ok ? "success" : "danger"} className="mt-6">
          {result.message}
        </Alert>
      ) : null}

      <div className="mt-6 space-y-2.5">
        <Button fullWidth loading={sending} onClick={resend}>
          {TEXT.resendVerification}
        </Button>
        <Button fullWidth variant="secondary" onClick={onBack}>
          {backLabel}
        </Button>
      </div>
    </Card>
  );
}
