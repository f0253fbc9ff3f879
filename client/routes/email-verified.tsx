import { CircleCheck, CircleX } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { href, useNavigate, useSearchParams } from "react-router";
import { VERIFICATION_REDIRECT_MS } from "../../shared/constants.ts";
import { ERRORS, TEXT, verificationErrorMessage } from "../../shared/contract/accounts.ts";
import { ButtonLink, Card, Spinner } from "../components/ui";
import { AuthHeader } from "../features/accounts/auth-header";
import { applyVerificationCode, firebaseErrorCode } from "../features/accounts/firebase-auth";
import { loginNoticeState } from "../features/accounts/login-notice";
import { useRootData } from "../lib/root-data";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/email-verified";

export const handle: RouteHandle = { title: "Email verification" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Email verification", productNameOf(matches)) }];
}

type Status = { kind: "verifying" } | { kind: "success" } | { kind: "error"; message: string };

/**
 * docs/product.md#email-verified and #email-verification: the code of the link is applied with
 * Firebase in the browser (the SDK loads when the page opens: applying it is the page's purpose).
 */
export default function EmailVerified() {
  const root = useRootData();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const oobCode = searchParams.get("mode") === "verifyEmail" ? searchParams.get("oobCode") : null;
  const [status, setStatus] = useState<Status>(
    oobCode ? { kind: "verifying" } : { kind: "error", message: ERRORS.verification.invalidLink },
  );
  const started = useRef(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  useEffect(() => {
    const firebase = root?.firebase;
    // A code works once: never apply it twice (a second run of the effect would fail with it).
    if (!oobCode || started.current) return;
    started.current = true;
    if (!firebase) {
      setStatus({ kind: "error", message: ERRORS.verification.default });
      return;
    }
    applyVerificationCode(firebase, oobCode).then(
      () => {
        setStatus({ kind: "success" });
        timer.current = window.setTimeout(
          () => navigate(href("/login"), { replace: true, state: loginNoticeState("emailVerified") }),
          VERIFICATION_REDIRECT_MS,
        );
      },
      (error: unknown) =>
        setStatus({ kind: "error", message: verificationErrorMessage(firebaseErrorCode(error)) }),
    );
  }, [oobCode, root?.firebase, navigate]);

  return (
    <>
      <AuthHeader title="Email verification" />
      <Card className="p-6 sm:p-8">
        {status.kind === "verifying" ? (
          <div className="flex flex-col items-center gap-3 py-4 text-center text-fg-muted text-sm">
            <Spinner size="lg" />
            <p role="status">Verifying your email…</p>
          </div>
        ) : status.kind === "success" ? (
          <div role="status" className="flex flex-col items-center gap-3 text-center">
            <CircleCheck aria-hidden="true" className="size-10 text-success-text" />
            <p className="font-medium text-fg">{TEXT.emailVerifiedDone}</p>
            <p className="text-fg-muted text-sm">Taking you to the sign-in page…</p>
          </div>
        ) : (
          <div className="flex flex-col items-center gap-3 text-center">
            <CircleX aria-hidden="true" className="size-10 text-danger-text" />
            <p role="alert" className="font-medium text-fg">
              {status.message}
            </p>
            <div className="mt-3 flex w-full flex-col gap-2.5">
              <ButtonLink to={href("/login")} variant="primary" fullWidth>
                {TEXT.goToLogin}
              </ButtonLink>
              <ButtonLink to={href("/signup")} fullWidth>
                {TEXT.signUpAgain}
              </ButtonLink>
            </div>
          </div>
        )}
      </Card>
    </>
  );
}
