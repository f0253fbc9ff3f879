/** /login's GitHub sign-in and the notice other pages hand it (the form: login.test.tsx). */
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GITHUB_NO_ACCOUNT_REDIRECT_MS } from "../../shared/constants.ts";
import {
  GITHUB_IDENTITY as GITHUB_PROFILE,
  jsonResponse,
  SIGNED_IN,
} from "../../tests/support/client/fixtures";
import { renderRoute } from "../../tests/support/client/render-route";
import {
  signInWithEmulatorGitHub,
  signInWithGitHub,
  signOutOfFirebase,
} from "../features/accounts/firebase-auth";
import { loginNoticeState } from "../features/accounts/login-notice";
import Login from "./login";

vi.mock("../features/accounts/firebase-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../features/accounts/firebase-auth")>()),
  loadFirebaseAuth: vi.fn(async () => ({})),
  signInWithGitHub: vi.fn(),
  signInWithEmulatorGitHub: vi.fn(),
  signOutOfFirebase: vi.fn(async () => {}),
}));

const gitHub = vi.mocked(signInWithGitHub);
const fetchMock = vi.fn<typeof fetch>();

// An http avatar, which the contract refuses: the sign-in must leave it out.
const GITHUB_IDENTITY = { ...GITHUB_PROFILE, avatarUrl: "http://insecure.example/ada.png" };

beforeEach(() => vi.stubGlobal("fetch", fetchMock));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  fetchMock.mockReset();
});

async function pressGitHub(url = "/login") {
  const user = userEvent.setup();
  renderRoute("login", Login, url);
  await user.click(await screen.findByRole("button", { name: "Sign in with GitHub" }));
  return user;
}

describe("/login with GitHub", () => {
  it("posts the ID token and the OAuth access token to /auth/login, then follows redirectTo after a second", async () => {
    gitHub.mockResolvedValue(GITHUB_IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse(SIGNED_IN));
    await pressGitHub("/login?redirectTo=%2Fhome%3Ftab%3Dx");

    expect(await screen.findByText("Signed in. Redirecting…")).toBeInTheDocument();
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe("/auth/login");
    // The http avatar is left out: the contract takes https only.
    expect(JSON.parse(String(init?.body))).toEqual({
      email: "ada@example.com",
      firebase_uid: "gh-uid",
      idToken: "gh-id-token",
      name: "Ada",
      oauthAccessToken: "gho_token",
    });
    expect(signOutOfFirebase).toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Sign in with Email" })).toBeDisabled();
    expect(await screen.findByText("Home page", {}, { timeout: 2000 })).toBeInTheDocument();
  });

  it("sends a GitHub profile without an account to /signup after two seconds", async () => {
    // Timers run with the clock (so findBy* works) and are moved on by hand past the redirect's delay.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldAdvanceTime: true });
    gitHub.mockResolvedValue(GITHUB_IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse({ error: "Not found" }, 404));
    await pressGitHub();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "No account found with this GitHub profile. Please sign up first.",
    );
    await act(() => vi.advanceTimersByTimeAsync(GITHUB_NO_ACCOUNT_REDIRECT_MS - 250));
    expect(screen.queryByText("Signup page")).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(250));
    expect(await screen.findByText("Signup page")).toBeInTheDocument();
  });

  it.each([
    [401, "Authentication failed. Please try again."],
    [403, "Access denied. Please contact support."],
    [502, "Failed to fetch user data."],
  ])("answers a %i with its message", async (status, message) => {
    gitHub.mockResolvedValue(GITHUB_IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse({ error: "x" }, status));
    await pressGitHub();
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(screen.getByRole("button", { name: "Sign in with GitHub" })).toBeEnabled();
  });

  it("says so when GitHub gives no e-mail", async () => {
    gitHub.mockResolvedValue({ ...GITHUB_IDENTITY, email: null });
    await pressGitHub();
    expect(await screen.findByRole("alert")).toHaveTextContent("GitHub email not available.");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ["auth/popup-closed-by-user", "The sign-in window was closed before signing in finished."],
    ["auth/popup-blocked", "The browser blocked the sign-in window. Please allow pop-ups and try again."],
    ["auth/cancelled-popup-request", "Sign-in was cancelled because another sign-in window opened."],
    [
      "auth/account-exists-with-different-credential",
      "An account already exists with this email address. Sign in with email and password instead.",
    ],
  ])("shows the popup's %s as its own message", async (code, message) => {
    gitHub.mockRejectedValue(Object.assign(new Error("x"), { code }));
    await pressGitHub();
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("opens one popup however often it is pressed", async () => {
    gitHub.mockReturnValue(new Promise(() => {}));
    const user = await pressGitHub();
    await user.click(screen.getByRole("button", { name: "Sign in with GitHub" }));
    expect(gitHub).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: "Sign in with Email" })).toBeDisabled();
  });
});

/** Navigate to /login carrying a notice, as /reset-password and /email-verified do. */
function SendsNotice({ notice }: { notice: "passwordReset" | "emailVerified" }) {
  const navigate = useNavigate();
  useEffect(() => {
    navigate("/login", { state: loginNoticeState(notice) });
  }, [navigate, notice]);
  return null;
}
const SendsPasswordReset = () => <SendsNotice notice="passwordReset" />;
const SendsEmailVerified = () => <SendsNotice notice="emailVerified" />;

describe("/login notices", () => {
  it.each([
    ["password-reset", SendsPasswordReset, "Your password has been reset. Sign in with your new password."],
    ["email-verified", SendsEmailVerified, "Your email has been verified. You can sign in now."],
  ])("shows the notice that %s's navigation carries", async (_, Sender, message) => {
    renderRoute("login", Login, "/from", {}, [{ path: "from", Component: Sender }]);
    expect(await screen.findByRole("status")).toHaveTextContent(message);
  });

  it("shows none on a plain visit", async () => {
    renderRoute("login", Login, "/login");
    await screen.findByRole("button", { name: "Sign in with Email" });
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });
});

describe("/login with GitHub in local mode", () => {
  it("asks for the GitHub profile to continue as, then signs in through the emulator's fake GitHub", async () => {
    const emulatorGitHub = vi.mocked(signInWithEmulatorGitHub);
    emulatorGitHub.mockResolvedValue({ ...GITHUB_IDENTITY, oauthAccessToken: null });
    fetchMock.mockResolvedValue(jsonResponse(SIGNED_IN));
    const user = userEvent.setup();
    renderRoute("login", Login, "/login", { localMode: true });
    await user.click(await screen.findByRole("button", { name: "Sign in with GitHub" }));

    const dialog = await screen.findByRole("dialog", { name: "GitHub in local mode" });
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    expect(await within(dialog).findAllByText("This field is required")).toHaveLength(2);
    await user.type(within(dialog).getByLabelText("GitHub e-mail"), "ada@example.com");
    await user.type(within(dialog).getByLabelText("Name"), "Ada");
    await user.type(within(dialog).getByLabelText("GitHub username"), "ada");
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));

    expect(await screen.findByText("Signed in. Redirecting…")).toBeInTheDocument();
    expect(gitHub).not.toHaveBeenCalled();
    expect(emulatorGitHub.mock.calls[0]?.[1]).toEqual({
      email: "ada@example.com",
      name: "Ada",
      login: "ada",
    });
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe("/auth/login");
    expect(JSON.parse(String(init?.body))).not.toHaveProperty("oauthAccessToken");
  });
});
