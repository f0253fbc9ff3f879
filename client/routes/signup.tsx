import { useEffect, useRef, useState } from "react";
import { href, useNavigate } from "react-router";
import { SIGNUP_HOME_REDIRECT_MS } from "../../shared/constants.ts";
import { ERRORS, identityErrorMessage, TEXT } from "../../shared/contract/accounts.ts";
import { SIGNUP_RULES, type SignupValues } from "../../shared/validation.ts";
import { Alert, Button, Card, SelectField, TextField, TextLink, useToast } from "../components/ui";
import { AuthHeader } from "../features/accounts/auth-header";
import {
  createUserWithEmail,
  discardNewFirebaseUser,
  firebaseErrorCode,
  signOutOfFirebase,
  warmUpFirebaseAuth,
} from "../features/accounts/firebase-auth";
import { GitHubSignIn } from "../features/accounts/github-sign-in";
import { loadAuthApi, warmUpAuthApi } from "../features/accounts/lazy-auth";
import { checkYourEmailPart, verificationRequiredPart } from "../features/accounts/lazy-panels";
import { useRulesForm } from "../lib/forms";
import { useLazyPart } from "../lib/lazy-part";
import { useRootData } from "../lib/root-data";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import { UI_TEXT } from "../lib/ui-text";
import type { Route } from "./+types/signup";

export const handle: RouteHandle = { title: "Create an account" };

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: documentTitle("Create an account", productNameOf(matches)) },
    { name: "description", content: TEXT.signupTagline },
  ];
}

/** Answers to "How did you hear about us?" (our wording; the product only requires an answer). */
const SOURCES = [
  { value: "search", label: "Search engine" },
  { value: "social", label: "Social media" },
  { value: "colleague", label: "Friend or colleague" },
  { value: "blog", label: "Blog or article" },
  { value: "event", label: "Event or conference" },
  { value: "github", label: "GitHub" },
  { value: "other", label: "Other" },
] as const;

type Status =
  | { kind: "idle" | "submitting" | "success" }
  | { kind: "error"; message: string }
  | { kind: "verify" | "unverified"; email: string };

/** docs/product.md#signup and #signup-flow */
export default function Signup() {
  const root = useRootData();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const [gitHubBusy, setGitHubBusy] = useState(false);
  const inFlight = useRef(false);
  const redirectTimer = useRef<number | undefined>(undefined);
  const form = useRulesForm<SignupValues>(SIGNUP_RULES, {
    name: "",
    email: "",
    company: "",
    source: "",
    password: "",
  });
  const { errors } = form.formState;

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  // Like /login: the Firebase SDK and the /auth calls load when the visitor starts, not with the page.
  function warmUp() {
    if (root?.firebase) warmUpFirebaseAuth(root.firebase);
    warmUpAuthApi();
    checkYourEmailPart.preload();
    verificationRequiredPart.preload();
  }
  const CheckYourEmail = useLazyPart(checkYourEmailPart, status.kind === "verify")?.CheckYourEmail;
  const VerificationRequired = useLazyPart(
    verificationRequiredPart,
    status.kind === "unverified",
  )?.VerificationRequired;

  const busy = status.kind === "submitting" || status.kind === "success" || gitHubBusy;

  async function create(values: SignupValues) {
    if (inFlight.current || busy) return;
    const firebase = root?.firebase;
    if (!firebase) {
      setStatus({ kind: "error", message: ERRORS.somethingWentWrong });
      return;
    }
    inFlight.current = true;
    setStatus({ kind: "submitting" });
    const email = values.email.trim();

    let identity: Awaited<ReturnType<typeof createUserWithEmail>>;
    let authApi: Awaited<ReturnType<typeof loadAuthApi>>;
    try {
      [identity, authApi] = await Promise.all([
        createUserWithEmail(firebase, email, values.password),
        loadAuthApi(),
      ]);
    } catch (error) {
      inFlight.current = false;
      setStatus({
        kind: "error",
        message: identityErrorMessage(firebaseErrorCode(error), ERRORS.firebaseSignupFailed),
      });
      return;
    }

    const outcome = await authApi.signup({
      name: values.name.trim(),
      email,
      company: values.company.trim(),
      source: values.source.trim(),
      type: "EMAIL",
      idToken: identity.idToken,
    });
    if (outcome.kind === "error") await discardNewFirebaseUser(firebase);
    // The password only went to Firebase; the session, if any, is the gateway's cookie now.
    await signOutOfFirebase(firebase);
    inFlight.current = false;

    if (outcome.kind === "verify") {
      setStatus({ kind: "verify", email });
    } else if (outcome.kind === "email-not-verified") {
      setStatus({ kind: "unverified", email });
    } else if (outcome.kind === "signed-in") {
      setStatus({ kind: "success" });
      toast({ tone: "success", title: TEXT.accountCreatedWelcome });
      redirectTimer.current = window.setTimeout(
        () => navigate(href("/"), { replace: true }),
        SIGNUP_HOME_REDIRECT_MS,
      );
    } else {
      setStatus({ kind: "error", message: outcome.message });
    }
  }

  if (status.kind === "verify") {
    return CheckYourEmail ? (
      <CheckYourEmail email={status.email} message={TEXT.accountCreatedVerify} />
    ) : null;
  }
  if (status.kind === "unverified") {
    if (!VerificationRequired) return null;
    return (
      <VerificationRequired
        email={status.email}
        backLabel={TEXT.backToSignup}
        onBack={() => {
          form.resetField("password");
          setStatus({ kind: "idle" });
        }}
      />
    );
  }

  const field = (name: keyof SignupValues) => ({
    ...form.register(name, { onChange: () => status.kind === "error" && setStatus({ kind: "idle" }) }),
    error: errors[name]?.message,
    disabled: busy,
    onFocus: warmUp,
  });

  return (
    <>
      <AuthHeader title="Create your account" subtitle={TEXT.signupTagline} />
      <Card className="p-6 sm:p-7">
        <form
          noValidate
          aria-label="Create account"
          className="space-y-5"
          onSubmit={(event) => {
            warmUp();
            return form.handleSubmit(create)(event);
          }}
        >
          {status.kind === "error" ? <Alert tone="danger">{status.message}</Alert> : null}
          {status.kind === "success" ? <Alert tone="success">{TEXT.accountCreatedWelcome}</Alert> : null}

          <TextField label={TEXT.nameLabel} autoComplete="name" required {...field("name")} />
          <TextField
            label={TEXT.passwordLabel}
            type="password"
            autoComplete="new-password"
            required
            {...field("password")}
          />
          <TextField
            label={TEXT.businessEmailLabel}
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@company.com"
            hint={TEXT.businessEmailHint}
            required
            {...field("email")}
          />
          <TextField label={TEXT.companyLabel} autoComplete="organization" required {...field("company")} />
          <SelectField
            label={TEXT.sourceLabel}
            placeholder="Choose one"
            options={SOURCES}
            required
            {...field("source")}
          />

          <Button
            type="submit"
            size="lg"
            fullWidth
            loading={status.kind === "submitting" || status.kind === "success"}
            disabled={busy}
          >
            {TEXT.createAccount}
          </Button>
        </form>

        <div className="my-5 flex items-center gap-3 text-fg-subtle text-xs">
          <span aria-hidden="true" className="h-px flex-1 bg-border" />
          {TEXT.orContinueWith}
          <span aria-hidden="true" className="h-px flex-1 bg-border" />
        </div>

        <GitHubSignIn
          mode="signup"
          label={UI_TEXT.signUpWithGitHub}
          disabled={busy && !gitHubBusy}
          onBusyChange={setGitHubBusy}
        />
      </Card>

      <p className="mt-6 text-center text-fg-muted text-sm">
        Already have an account? <TextLink to={href("/login")}>{TEXT.signInHere}</TextLink>
      </p>
    </>
  );
}
