import { CircleX } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { href, useNavigate, useParams, useSearchParams } from "react-router";
import { LOGIN_CALLBACK_SUCCESS_REDIRECT_MS, LOGIN_CALLBACK_TIMEOUT_MS } from "../../shared/constants.ts";
import { ERRORS, TEXT } from "../../shared/contract/accounts.ts";
import { ButtonLink, Card, Spinner } from "../components/ui";
import type { CallbackOutcome } from "../features/accounts/auth-api";
import { AuthHeader } from "../features/accounts/auth-header";
import { loadAuthApi } from "../features/accounts/lazy-auth";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import { UI_TEXT } from "../lib/ui-text";
import type { Route } from "./+types/oauth-callback";

export const handle: RouteHandle = { title: "Signing in" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Signing in", productNameOf(matches)) }];
}

type Status = { kind: "loading" } | CallbackOutcome;

/** docs/product.md#oauthcallbackprovider and #login-callback */
export default function OAuthCallback() {
  const navigate = useNavigate();
  const { provider } = useParams();
  const [searchParams] = useSearchParams();
  const code = searchParams.get("code");
  const [status, setStatus] = useState<Status>(
    code && provider ? { kind: "loading" } : { kind: "error", message: ERRORS.loginCallback.missingCode },
  );
  const started = useRef(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  useEffect(() => {
    // An OAuth code works once: never send it twice.
    if (!code || !provider || started.current) return;
    started.current = true;
    loadAuthApi()
      .then((api) => api.providerLogin(provider, code, LOGIN_CALLBACK_TIMEOUT_MS))
      .catch((): CallbackOutcome => ({ kind: "error", message: ERRORS.loginCallback.network }))
      .then((outcome) => {
        setStatus(outcome);
        if (outcome.kind === "success") {
          timer.current = window.setTimeout(
            () => navigate(href("/home"), { replace: true }),
            LOGIN_CALLBACK_SUCCESS_REDIRECT_MS,
          );
        }
      });
  }, [code, provider, navigate]);

  return (
    <>
      <AuthHeader title={status.kind === "loading" ? TEXT.signingYouIn : "Sign-in"} />
      <Card className="p-6 sm:p-8">
        {status.kind === "loading" ? (
          <div className="flex flex-col items-center gap-3 py-4 text-center text-fg-muted text-sm">
            <Spinner size="lg" />
            <p role="status">{TEXT.signingYouIn}</p>
          </div>
        ) : status.kind === "success" ? (
          <p role="status" className="text-center font-medium text-fg">
            {UI_TEXT.loginSuccess}
          </p>
        ) : (
          <div className="flex flex-col items-center gap-3 text-center">
            <CircleX aria-hidden="true" className="size-10 text-danger-text" />
            <p role="alert" className="font-medium text-fg">
              {status.message}
            </p>
            <ButtonLink to={href("/login")} variant="primary" fullWidth className="mt-3">
              {TEXT.retryLogin}
            </ButtonLink>
          </div>
        )}
      </Card>
    </>
  );
}
