/**
 * What the "check your e-mail" panels share: a card that replaces a form, headed by a mail icon and a
 * heading that takes focus (so the change is announced), and the resend-verification call.
 */
import { MailCheck } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { ERRORS } from "../../../shared/contract/accounts.ts";
import { Card } from "../../components/ui";
import { loadAuthApi } from "./lazy-auth";

export function MailPanel({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
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
          {title}
        </h1>
        {children}
      </div>
      {actions}
    </Card>
  );
}

export interface ResendResult {
  ok: boolean;
  message: string;
}

/** POST /auth/resend-verification for `email`; `sending` while it runs. */
export function useResendVerification(email: string) {
  const [sending, setSending] = useState(false);
  async function resend(): Promise<ResendResult> {
    setSending(true);
    try {
      const { resendVerification } = await loadAuthApi();
      return await resendVerification(email);
    } catch {
      return { ok: false, message: ERRORS.verificationResendFailed };
    } finally {
      setSending(false);
    }
  }
  return { sending, resend };
}
