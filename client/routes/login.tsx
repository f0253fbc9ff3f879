import { ArrowRight } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { href, useNavigate, useSearchParams } from "react-router";
import { DEFAULT_PRODUCT_NAME, LOGIN_SUCCESS_REDIRECT_MS } from "../../shared/constants.ts";
import { ERRORS, identityErrorMessage, TEXT } from "../../shared/contract/accounts.ts";
import { LOGIN_RULES, type LoginValues } from "../../shared/validation.ts";
import { Alert, Button, Card, TextField, TextLink } from "../components/ui";
import { AuthHeader } from "../features/accounts/auth-header";
import {
  firebaseErrorCode,
  signInWithEmail,
  signOutOfFirebase,
  warmUpFirebaseAuth,
} from "../features/accounts/firebase-auth";
import { GitHubSignIn } from "../features/accounts/github-sign-in";
import { loadAuthApi, warmUpAuthApi } from "../features/accounts/lazy-auth";
import { verificationRequiredPart } from "../features/accounts/lazy-panels";
import { useLoginNotice } from "../features/accounts/login-notice";
import { safeRedirectPath } from "../features/accounts/safe-redirect.ts";
import { useRulesForm } from "../lib/forms";
import { useLazyPart } from "../lib/lazy-part";
import { useRootData } from "../lib/root-data";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import { UI_TEXT } from "../lib/ui-text";
import type { Route } from "./+types/login";

export const handle: RouteHandle = { title: "Sign in" };

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: documentTitle("Sign in", productNameOf(matches)) },
    { name: "description", content: TEXT.subtitle },
  ];
}

type Status =
  | { kind: "idle" }
  | { kind: "submitting" }
  | { kind: "error"; message: string }
  | { kind: "success" }
  | { kind: "unverified"; email: string };

export default function Login() {
  const root = useRootData();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const notice = useLoginNotice();
  const [gitHubBusy, setGitHubBusy] = useState(false);

  // Errors show once a field is touched; a submit touches every field and focuses the first invalid.
  const form = useRulesForm<LoginValues>(LOGIN_RULES, { email: "", password: "" });
  const { errors } = form.formState;
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  // Set at once, before the re-render that disables the button: a double click submits once.
  const submitting = useRef(false);
  const redirectTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  // The Firebase SDK and the /auth calls are not part of the page's first load: they start loading
  // when the visitor starts to sign in (focus, submit, a provider button), so they are ready by the
  // time the form is filled in. Both are fetched once and kept.
  function warmUp() {
    if (root?.firebase) warmUpFirebaseAuth(root.firebase);
    warmUpAuthApi();
    verificationRequiredPart.preload();
  }
  const VerificationRequired = useLazyPart(
    verificationRequiredPart,
    status.kind === "unverified",
  )?.VerificationRequired;

  const busy = status.kind === "submitting" || status.kind === "success" || gitHubBusy;

  // Typing again clears a failed attempt's message.
  const clearFailure = () => {
    if (status.kind === "error") setStatus({ kind: "idle" });
  };

  async function signIn(values: LoginValues) {
    if (submitting.current) return;
    submitting.current = true;
    try {
      await attemptSignIn(values);
    } finally {
      submitting.current = false;
    }
  }

  async function attemptSignIn(values: LoginValues) {
    const firebase = root?.firebase;
    if (!firebase) {
      setStatus({ kind: "error", message: ERRORS.somethingWentWrong });
      return;
    }

    setStatus({ kind: "submitting" });
    const email = values.email.trim();
    let identity: Awaited<ReturnType<typeof signInWithEmail>>;
    let authApi: Awaited<ReturnType<typeof loadAuthApi>>;
    try {
      [identity, authApi] = await Promise.all([
        signInWithEmail(firebase, email, values.password),
        loadAuthApi(),
      ]);
    } catch (error) {
      setStatus({ kind: "error", message: identityErrorMessage(firebaseErrorCode(error)) });
      return;
    }

    const outcome = await authApi.loginWithIdToken({
      email: identity.email ?? email,
      firebase_uid: identity.uid,
      idToken: identity.idToken,
      ...(identity.name ? { name: identity.name } : {}),
      ...(identity.avatarUrl ? { avatar_url: identity.avatarUrl } : {}),
    });
    // Firebase only had to prove the password: the product session is the gateway's cookie now.
    await signOutOfFirebase(firebase);

    if (outcome.kind === "ok") {
      setStatus({ kind: "success" });
      const target = safeRedirectPath(searchParams.get("redirectTo"));
      redirectTimer.current = window.setTimeout(
        () => navigate(target, { replace: true }),
        LOGIN_SUCCESS_REDIRECT_MS,
      );
    } else if (outcome.kind === "email-not-verified") {
      setStatus({ kind: "unverified", email: identity.email ?? email });
    } else {
      setStatus({ kind: "error", message: outcome.message });
    }
  }

  if (status.kind === "unverified") {
    if (!VerificationRequired) return null;
    return (
      <VerificationRequired
        email={status.email}
        onBack={() => {
          form.reset({ email: form.getValues("email"), password: "" });
          setStatus({ kind: "idle" });
        }}
      />
    );
  }

  return (
    <>
      <AuthHeader title={TEXT.loginTitle} subtitle={TEXT.subtitle} />
      <Card className="p-6 sm:p-7">
        <form
          noValidate
          onSubmit={(event) => {
            warmUp();
            return form.handleSubmit(signIn)(event);
          }}
          aria-label="Sign in"
          className="space-y-5"
        >
          {notice && status.kind === "idle" ? <Alert tone="success">{notice}</Alert> : null}
          {status.kind === "error" ? <Alert tone="danger">{status.message}</Alert> : null}
          {status.kind === "success" ? <Alert tone="success">{UI_TEXT.loginSuccess}</Alert> : null}

          <TextField
            {...form.register("email", { onChange: clearFailure })}
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@company.com"
            required
            disabled={busy}
            error={errors.email?.message}
            onFocus={warmUp}
          />
          <TextField
            {...form.register("password", { onChange: clearFailure })}
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            disabled={busy}
            error={errors.password?.message}
            labelAside={
              <TextLink to={href("/forgot-password")} className="text-sm">
                {TEXT.forgotPassword}
              </TextLink>
            }
            onFocus={warmUp}
          />

          <Button type="submit" size="lg" fullWidth loading={busy}>
            {TEXT.signInWithEmail}
          </Button>
        </form>

        <div className="my-5 flex items-center gap-3 text-fg-subtle text-xs" aria-hidden="true">
          <span className="h-px flex-1 bg-border" />
          or
          <span className="h-px flex-1 bg-border" />
        </div>

        <GitHubSignIn
          mode="login"
          label={UI_TEXT.signInWithGitHub}
          disabled={status.kind === "submitting" || status.kind === "success"}
          onBusyChange={setGitHubBusy}
        />
      </Card>

      <p className="mt-6 text-center text-fg-muted text-sm">
        New to {root?.productName || DEFAULT_PRODUCT_NAME}?{" "}
        <TextLink to={href("/signup")} className="inline-flex items-center gap-1">
          Create an account
          <ArrowRight aria-hidden="true" className="size-3.5" />
        </TextLink>
      </p>
    </>
  );
}
