import { useState } from "react";
import { TEXT } from "../../../shared/contract/accounts.ts";
import { Alert, Button } from "../../components/ui";
import { MailPanel, type ResendResult, useResendVerification } from "./mail-panel";

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
  const { sending, resend } = useResendVerification(email);
  const [result, setResult] = useState<ResendResult | null>(null);

  async function resendInPlace() {
    setResult(null);
    setResult(await resend());
  }

  return (
    <MailPanel
      title="Verify your email"
      actions={
        <>
          {result ? (
            <Alert tone={result.ok ? "success" : "danger"} className="mt-6">
              {result.message}
            </Alert>
          ) : null}
          <div className="mt-6 space-y-2.5">
            <Button fullWidth loading={sending} onClick={resendInPlace}>
              {TEXT.resendVerification}
            </Button>
            <Button fullWidth variant="secondary" onClick={onBack}>
              {backLabel}
            </Button>
          </div>
        </>
      }
    >
      <p className="mt-2 text-fg-muted text-sm">
        Your email address has not been verified yet. Open the link we sent to
      </p>
      <p className="mt-1 break-all font-medium text-fg text-sm">{email}</p>
      <p className="mt-1 text-fg-muted text-sm">
        then sign in again. Check your spam folder if you cannot find it.
      </p>
    </MailPanel>
  );
}
