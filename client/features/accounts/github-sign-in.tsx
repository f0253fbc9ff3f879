import { useEffect, useRef, useState } from "react";
import { href, useNavigate, useSearchParams } from "react-router";
import { CODE_HOST_LOGIN_REDIRECT_MS, GITHUB_NO_ACCOUNT_REDIRECT_MS } from "../../../shared/constants.ts";
import { ERRORS, identityErrorMessage, TEXT } from "../../../shared/contract/accounts.ts";
import { GitHubMark } from "../../components/icons";
import { Alert, Button } from "../../components/ui";
import { lazyPart, useLazyPart } from "../../lib/lazy-part";
import { useRootData } from "../../lib/root-data";
import { UI_TEXT } from "../../lib/ui-text";
import {
  type EmulatorGitHubProfile,
  firebaseErrorCode,
  type GitHubIdentity,
  httpsUrlOrNull,
  signInWithEmulatorGitHub,
  signInWithGitHub,
  signOutOfFirebase,
  warmUpFirebaseAuth,
} from "./firebase-auth";
import { loadAuthApi, warmUpAuthApi } from "./lazy-auth";
import { safeRedirectPath } from "./safe-redirect.ts";

const localGitHubDialog = lazyPart(() => import("./local-github-dialog"));

type State = { kind: "idle" | "busy" } | { kind: "done" | "error"; message: string };

/**
 * Sign-in (mode "login") or sign-up ("signup") with GitHub through Firebase's popup, then the
 * product's call: POST /auth/login or POST /auth/github-signup (docs/product.md#login, #signup).
 * Messages: docs/product.md#github-sign-in-errors.
 */
export function GitHubSignIn({
  mode,
  label,
  disabled = false,
  onBusyChange,
}: {
  mode: "login" | "signup";
  label: string;
  disabled?: boolean;
  /** Lets the page lock its own form while the popup is open. */
  onBusyChange?: (busy: boolean) => void;
}) {
  const root = useRootData();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [state, setState] = useState<State>({ kind: "idle" });
  const running = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  // Against the emulator (local mode) a dialog stands in for GitHub's popup.
  const local = Boolean(root?.firebase.emulatorUrl);
  const [askingProfile, setAskingProfile] = useState(false);
  const LocalGitHubDialog = useLazyPart(localGitHubDialog, askingProfile)?.LocalGitHubDialog;

  useEffect(() => () => window.clearTimeout(timer.current), []);

  function settle(next: State) {
    setState(next);
    if (next.kind !== "done") running.current = false;
    onBusyChange?.(next.kind === "busy" || next.kind === "done");
  }

  // Loaded on focus too, so the popup opens right on the click (popup blockers want that).
  function warmUp() {
    if (root?.firebase) warmUpFirebaseAuth(root.firebase);
    warmUpAuthApi();
    if (local) localGitHubDialog.preload();
  }

  function onClick() {
    if (local) setAskingProfile(true);
    else void signIn((firebase) => signInWithGitHub(firebase));
  }

  function continueAs(profile: EmulatorGitHubProfile) {
    setAskingProfile(false);
    void signIn((firebase) => signInWithEmulatorGitHub(firebase, profile));
  }

  async function signIn(
    gitHubIdentity: (firebase: NonNullable<typeof root>["firebase"]) => Promise<GitHubIdentity>,
  ) {
    if (running.current) return;
    running.current = true;
    const firebase = root?.firebase;
    if (!firebase) return settle({ kind: "error", message: ERRORS.somethingWentWrong });
    settle({ kind: "busy" });

    let identity: GitHubIdentity;
    let authApi: Awaited<ReturnType<typeof loadAuthApi>>;
    try {
      [identity, authApi] = await Promise.all([gitHubIdentity(firebase), loadAuthApi()]);
    } catch (error) {
      return settle({ kind: "error", message: identityErrorMessage(firebaseErrorCode(error)) });
    }

    const { email, oauthAccessToken } = identity;
    let outcome: Awaited<ReturnType<typeof authApi.gitHubLogin>>;
    if (!email) {
      outcome = { kind: "error", message: ERRORS.gitHub.emailMissing };
    } else if (mode === "login") {
      const avatarUrl = httpsUrlOrNull(identity.avatarUrl);
      outcome = await authApi.gitHubLogin({
        email,
        firebase_uid: identity.uid,
        idToken: identity.idToken,
        ...(identity.name ? { name: identity.name } : {}),
        ...(avatarUrl ? { avatar_url: avatarUrl } : {}),
        ...(oauthAccessToken ? { oauthAccessToken } : {}),
      });
    } else {
      outcome = await authApi.gitHubSignup({
        email,
        displayName: identity.name,
        photoURL: httpsUrlOrNull(identity.avatarUrl),
        screenName: identity.screenName,
        localId: identity.uid,
        ...(oauthAccessToken ? { oauthAccessToken } : {}),
        scopes: identity.scopes,
        idToken: identity.idToken,
      });
    }
    // The product session is the gateway's cookie; Firebase's part is over either way.
    await signOutOfFirebase(firebase);

    if (outcome.kind === "ok") {
      settle({ kind: "done", message: mode === "login" ? UI_TEXT.loginSuccess : TEXT.accountCreatedWelcome });
      const target = safeRedirectPath(searchParams.get("redirectTo"));
      timer.current = window.setTimeout(
        () => navigate(target, { replace: true }),
        CODE_HOST_LOGIN_REDIRECT_MS,
      );
    } else if (outcome.kind === "no-account") {
      settle({ kind: "error", message: ERRORS.gitHub.noAccount });
      timer.current = window.setTimeout(() => navigate(href("/signup")), GITHUB_NO_ACCOUNT_REDIRECT_MS);
    } else {
      settle({ kind: "error", message: outcome.message });
    }
  }

  return (
    <div className="space-y-3">
      <Button
        variant="secondary"
        size="lg"
        fullWidth
        disabled={disabled || state.kind === "done"}
        loading={state.kind === "busy"}
        icon={<GitHubMark className="size-4" />}
        onFocus={warmUp}
        onClick={onClick}
      >
        {label}
      </Button>
      {askingProfile && LocalGitHubDialog ? (
        <LocalGitHubDialog onContinue={continueAs} onCancel={() => setAskingProfile(false)} />
      ) : null}
      {state.kind === "error" ? <Alert tone="danger">{state.message}</Alert> : null}
      {state.kind === "done" ? <Alert tone="success">{state.message}</Alert> : null}
    </div>
  );
}
