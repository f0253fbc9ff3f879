import { KeyRound, LinkIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { href, useNavigate } from "react-router";
import { RESET_REDIRECT_MS } from "../../shared/constants.ts";
import { ERRORS, TEXT } from "../../shared/contract/accounts.ts";
import { RESET_PASSWORD_RULES, type ResetPasswordValues } from "../../shared/validation.ts";
import { Alert, Button, ButtonLink, Card, TextField } from "../components/ui";
import { AuthHeader } from "../features/accounts/auth-header";
import { loadAuthApi, warmUpAuthApi } from "../features/accounts/lazy-auth";
import { loginNoticeState } from "../features/accounts/login-notice";
import { checkResetLink, type ResetLink } from "../features/accounts/reset-link.server";
import { useRulesForm } from "../lib/forms";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/reset-password";

export const handle: RouteHandle = { title: "Set a new password" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Set a new password", productNameOf(matches)) }];
}

type Status =
  | { kind: "idle" | "submitting" | "done" }
  | { kind: "error"; message: string }
  | { kind: "invalid-link"; message: string };

/** The reset link's code, or null when the link is not a password-reset link. */
function resetCode(params: URLSearchParams): string | null {
  return params.get("mode") === "resetPassword" ? params.get("oobCode") || null : null;
}

/** The link is checked on the server first: a used or expired one never shows the form. */
export async function loader({ context, request }: Route.LoaderArgs): Promise<{
  oobCode: string | null;
  link: ResetLink;
}> {
  const oobCode = resetCode(new URL(request.url).searchParams);
  if (!oobCode) return { oobCode, link: { status: "invalid", message: ERRORS.invalidResetLink } };
  return { oobCode, link: await checkResetLink(context, request, oobCode) };
}

/** docs/product.md#reset-password */
export default function ResetPassword({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const { oobCode, link } = loaderData;
  const [status, setStatus] = useState<Status>(
    link.status === "invalid" ? { kind: "invalid-link", message: link.message } : { kind: "idle" },
  );
  const inFlight = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  const form = useRulesForm<ResetPasswordValues>(RESET_PASSWORD_RULES, { password: "", confirmPassword: "" });
  const { errors } = form.formState;

  useEffect(() => () => window.clearTimeout(timer.current), []);
  const warmUp = () => warmUpAuthApi();

  async function reset({ password }: ResetPasswordValues) {
    if (inFlight.current || !oobCode) return;
    inFlight.current = true;
    setStatus({ kind: "submitting" });
    let result: Awaited<ReturnType<Awaited<ReturnType<typeof loadAuthApi>>["resetPassword"]>>;
    try {
      result = await (await loadAuthApi()).resetPassword(oobCode, password);
    } catch {
      result = { ok: false, status: 0, message: ERRORS.resetPasswordFailed };
    }
    inFlight.current = false;
    if (result.ok) {
      setStatus({ kind: "done" });
      timer.current = window.setTimeout(
        () => navigate(href("/login"), { replace: true, state: loginNoticeState("passwordReset") }),
        RESET_REDIRECT_MS,
      );
    } else if (result.status === 400) {
      // An expired or already used code: a new link is the only way on.
      setStatus({ kind: "invalid-link", message: result.message });
    } else {
      setStatus({ kind: "error", message: result.message });
    }
  }

  if (status.kind === "invalid-link") {
    return (
      <>
        <AuthHeader title="Reset link not valid" />
        <Card className="space-y-5 p-6 sm:p-7">
          <div className="flex justify-center" aria-hidden="true">
            <LinkIcon className="size-8 text-fg-subtle" />
          </div>
          <Alert tone="danger">{status.message}</Alert>
          <div className="space-y-2.5">
            <ButtonLink to={href("/forgot-password")} variant="primary" fullWidth>
              Request a new link
            </ButtonLink>
            <ButtonLink to={href("/login")} fullWidth>
              {TEXT.backToLogin}
            </ButtonLink>
          </div>
        </Card>
      </>
    );
  }

  if (status.kind === "done") {
    // The code is spent: nothing is left to submit until the redirect.
    return (
      <>
        <AuthHeader title="Password reset" />
        <Card className="space-y-5 p-6 sm:p-7">
          <Alert tone="success">{TEXT.passwordResetDone}</Alert>
          <ButtonLink to={href("/login")} variant="primary" fullWidth>
            {TEXT.backToLogin}
          </ButtonLink>
        </Card>
      </>
    );
  }

  const busy = status.kind === "submitting";
  return (
    <>
      <AuthHeader title="Set a new password" subtitle="Choose a strong password you have not used before." />
      <Card className="p-6 sm:p-7">
        <form
          noValidate
          aria-label="Set a new password"
          className="space-y-5"
          onSubmit={form.handleSubmit(reset)}
        >
          {status.kind === "error" ? <Alert tone="danger">{status.message}</Alert> : null}
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            disabled={busy}
            error={errors.password?.message}
            onFocus={warmUp}
            {...form.register("password", {
              // The confirmation depends on this field: check it again once it has been touched.
              onChange: () => form.formState.touchedFields.confirmPassword && form.trigger("confirmPassword"),
            })}
          />
          <TextField
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            required
            disabled={busy}
            error={errors.confirmPassword?.message}
            onFocus={warmUp}
            {...form.register("confirmPassword")}
          />
          <Button
            type="submit"
            size="lg"
            fullWidth
            loading={busy}
            icon={<KeyRound aria-hidden="true" className="size-4" />}
          >
            Reset Password
          </Button>
        </form>
      </Card>
    </>
  );
}
