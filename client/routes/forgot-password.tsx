import { ArrowLeft, Inbox, MailCheck } from "lucide-react";
import { useRef, useState } from "react";
import { href } from "react-router";
import { ERRORS, TEXT } from "../../shared/contract/accounts.ts";
import { FORGOT_PASSWORD_RULES } from "../../shared/validation.ts";
import { Alert, Button, ButtonLink, Card, TextField, TextLink } from "../components/ui";
import { AuthHeader } from "../features/accounts/auth-header";
import { loadAuthApi, warmUpAuthApi } from "../features/accounts/lazy-auth";
import { useRulesForm } from "../lib/forms";
import { useRootData } from "../lib/root-data";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/forgot-password";

export const handle: RouteHandle = { title: "Reset your password" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Reset your password", productNameOf(matches)) }];
}

type Status = { kind: "idle" | "submitting" } | { kind: "sent" | "error"; message: string };

/** docs/product.md#forgot-password */
export default function ForgotPassword() {
  const root = useRootData();
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const inFlight = useRef(false);
  const form = useRulesForm<{ email: string }>(FORGOT_PASSWORD_RULES, { email: "" });
  const warmUp = () => warmUpAuthApi();

  async function send({ email }: { email: string }) {
    if (inFlight.current) return;
    inFlight.current = true;
    setStatus({ kind: "submitting" });
    try {
      const { forgotPassword } = await loadAuthApi();
      const result = await forgotPassword(email.trim());
      // The answer is the same whether or not the address has an account: show it as it comes.
      setStatus({ kind: result.ok ? "sent" : "error", message: result.message });
    } catch {
      // The /auth calls could not be loaded (offline, say).
      setStatus({ kind: "error", message: ERRORS.forgotPasswordFailed });
    }
    inFlight.current = false;
  }

  if (status.kind === "sent") {
    return (
      <>
        <AuthHeader title="Check your inbox" />
        <Card className="space-y-5 p-6 sm:p-7">
          <div className="flex flex-col items-center gap-3 text-center">
            <MailCheck aria-hidden="true" className="size-8 text-accent-text" />
            <Alert tone="success" className="w-full text-left">
              {status.message}
            </Alert>
            {root?.localMode ? (
              <TextLink to={href("/outbox")} className="inline-flex items-center gap-1.5 text-sm">
                <Inbox aria-hidden="true" className="size-4" />
                {TEXT.openOutbox}
              </TextLink>
            ) : null}
          </div>
          <ButtonLink
            to={href("/login")}
            fullWidth
            icon={<ArrowLeft aria-hidden="true" className="size-4" />}
          >
            {TEXT.backToLogin}
          </ButtonLink>
        </Card>
      </>
    );
  }

  const busy = status.kind === "submitting";
  return (
    <>
      <AuthHeader
        title="Forgot your password?"
        subtitle="Enter your email and we will send you a reset link."
      />
      <Card className="p-6 sm:p-7">
        <form noValidate aria-label="Reset password" className="space-y-5" onSubmit={form.handleSubmit(send)}>
          {status.kind === "error" ? <Alert tone="danger">{status.message}</Alert> : null}
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@company.com"
            required
            disabled={busy}
            error={form.formState.errors.email?.message}
            onFocus={warmUp}
            {...form.register("email")}
          />
          <Button type="submit" size="lg" fullWidth loading={busy}>
            {TEXT.sendResetLink}
          </Button>
        </form>
      </Card>
      <p className="mt-6 text-center text-sm">
        <TextLink to={href("/login")} className="inline-flex items-center gap-1">
          <ArrowLeft aria-hidden="true" className="size-3.5" />
          {TEXT.backToLogin}
        </TextLink>
      </p>
    </>
  );
}
