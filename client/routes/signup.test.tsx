import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ERROR_CODES } from "../../shared/contract/common.ts";
import { GITHUB_IDENTITY, jsonResponse, SIGNED_IN } from "../../tests/support/client/fixtures";
import { renderRoute } from "../../tests/support/client/render-route";
import {
  createUserWithEmail,
  discardNewFirebaseUser,
  signInWithGitHub,
  signOutOfFirebase,
  warmUpFirebaseAuth,
} from "../features/accounts/firebase-auth";
import Signup from "./signup";

vi.mock("../features/accounts/firebase-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../features/accounts/firebase-auth")>()),
  warmUpFirebaseAuth: vi.fn(),
  createUserWithEmail: vi.fn(),
  discardNewFirebaseUser: vi.fn(async () => {}),
  signInWithGitHub: vi.fn(),
  signOutOfFirebase: vi.fn(async () => {}),
}));

const createUser = vi.mocked(createUserWithEmail);
const gitHub = vi.mocked(signInWithGitHub);
const fetchMock = vi.fn<typeof fetch>();

const IDENTITY = {
  idToken: "id-token",
  uid: "fb-uid",
  email: "ada@example.com",
  name: null,
  avatarUrl: null,
};
const NEEDS_VERIFICATION = { requiresEmailVerification: true, message: "Verification email sent" };

function renderSignup(url = "/signup", options?: { localMode?: boolean }) {
  return renderRoute("signup", Signup, url, options);
}

async function fillAndSubmit(password = "Str0ng-Pass!") {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Name"), "Ada Lovelace");
  await user.type(screen.getByLabelText("Password"), password);
  await user.type(screen.getByLabelText("Business Email Address"), "ada@example.com");
  await user.type(screen.getByLabelText("Company"), "Analytical Engines");
  await user.selectOptions(screen.getByLabelText("How did you hear about us?"), "search");
  await user.click(screen.getByRole("button", { name: "Create Account" }));
  return user;
}

beforeEach(() => vi.stubGlobal("fetch", fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  fetchMock.mockReset();
});

describe("/signup form", () => {
  it("shows every field, the helper, the buttons and the link to sign in", async () => {
    renderSignup();
    for (const label of [
      "Name",
      "Password",
      "Business Email Address",
      "Company",
      "How did you hear about us?",
    ]) {
      expect(await screen.findByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByLabelText("Business Email Address")).toHaveAccessibleDescription(
      "Please use your business email address",
    );
    expect(screen.getByRole("button", { name: "Create Account" })).toBeEnabled();
    expect(screen.getByText("Or continue with")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign up with GitHub" })).toBeEnabled();
    expect(screen.getByRole("link", { name: "Sign in here" })).toHaveAttribute("href", "/login");
  });

  it("shows a field's error only once it is touched", async () => {
    const user = userEvent.setup();
    renderSignup();
    await user.type(await screen.findByLabelText("Name"), "A");
    expect(screen.queryByText("Must be at least 2 characters")).not.toBeInTheDocument();
    await user.tab();
    expect(screen.getByLabelText("Name")).toHaveAccessibleDescription("Must be at least 2 characters");

    await user.type(screen.getByLabelText("Password"), "alllowercase1!");
    await user.tab();
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(
      "Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character.",
    );
    await user.type(screen.getByLabelText("Business Email Address"), "nope");
    await user.tab();
    expect(screen.getByText("Please enter a valid email address")).toBeInTheDocument();
  });

  it("marks every field on submit, focuses the first and calls nothing while invalid", async () => {
    const user = userEvent.setup();
    renderSignup();
    await user.click(await screen.findByRole("button", { name: "Create Account" }));
    expect(await screen.findAllByText("This field is required")).toHaveLength(5);
    expect(screen.getByLabelText("Name")).toHaveFocus();
    expect(createUser).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("starts loading the Firebase SDK when a field is focused, not before", async () => {
    const user = userEvent.setup();
    renderSignup();
    const name = await screen.findByLabelText("Name");
    expect(warmUpFirebaseAuth).not.toHaveBeenCalled();
    await user.click(name);
    expect(warmUpFirebaseAuth).toHaveBeenCalledWith(expect.objectContaining({ projectId: "demo-argus" }));
  });

  it("submits once however often it is pressed, and shows it is busy", async () => {
    createUser.mockReturnValue(new Promise(() => {}));
    renderSignup();
    const user = await fillAndSubmit();
    const button = screen.getByRole("button", { name: "Create Account" });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute("aria-busy", "true");
    await user.click(button);
    expect(createUser).toHaveBeenCalledTimes(1);
    expect(createUser).toHaveBeenCalledWith(
      expect.objectContaining({ projectId: "demo-argus" }),
      "ada@example.com",
      "Str0ng-Pass!",
    );
  });
});

describe("/signup by e-mail", () => {
  it("creates the Firebase user, posts the ID token (not the password) and shows 'Check Your Email'", async () => {
    createUser.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse(NEEDS_VERIFICATION));
    renderSignup();
    await fillAndSubmit();

    expect(await screen.findByRole("heading", { name: "Check Your Email" })).toHaveFocus();
    expect(
      screen.getByText("Account created! Please check your email to verify your account."),
    ).toBeInTheDocument();
    expect(screen.getByText("ada@example.com")).toBeInTheDocument();
    expect(screen.getByText(/spam/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Login" })).toHaveAttribute("href", "/login");
    expect(screen.queryByRole("link", { name: "Local mode: open the outbox" })).not.toBeInTheDocument();

    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe("/auth/signup");
    expect(JSON.parse(String(init?.body))).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
      company: "Analytical Engines",
      source: "search",
      type: "EMAIL",
      idToken: "id-token",
    });
    expect(signOutOfFirebase).toHaveBeenCalled();
  });

  it("resends the verification e-mail with a toast for success and for failure", async () => {
    createUser.mockResolvedValue(IDENTITY);
    fetchMock
      .mockResolvedValueOnce(jsonResponse(NEEDS_VERIFICATION))
      .mockResolvedValueOnce(jsonResponse({ message: "sent" }))
      .mockResolvedValueOnce(jsonResponse({ error: "Boom" }, 500));
    renderSignup();
    const user = await fillAndSubmit();

    await user.click(await screen.findByRole("button", { name: "Resend Verification Email" }));
    // The toaster loads with the first toast.
    const notifications = await screen.findByRole("region", { name: "Notifications" });
    expect(await within(notifications).findByText("Verification email sent again!")).toBeInTheDocument();
    const [path, init] = fetchMock.mock.calls[1] ?? [];
    expect(path).toBe("/auth/resend-verification");
    expect(JSON.parse(String(init?.body))).toEqual({ email: "ada@example.com" });

    await user.click(screen.getByRole("button", { name: "Resend Verification Email" }));
    expect(
      await within(notifications).findByText("Failed to resend verification email. Please try again."),
    ).toBeInTheDocument();
  });

  it("links to the local outbox in local mode", async () => {
    createUser.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse(NEEDS_VERIFICATION));
    renderSignup("/signup", { localMode: true });
    await fillAndSubmit();
    expect(await screen.findByRole("link", { name: "Local mode: open the outbox" })).toHaveAttribute(
      "href",
      "/outbox",
    );
  });

  it("welcomes a user who is signed in at once and goes to / after a second", async () => {
    createUser.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(
      jsonResponse({ requiresEmailVerification: false, message: "ok", ...SIGNED_IN }),
    );
    renderSignup();
    await fillAndSubmit();
    const notifications = await screen.findByRole("region", { name: "Notifications" });
    expect(
      await within(notifications).findByText("Account created successfully! Welcome!"),
    ).toBeInTheDocument();
    expect(screen.queryByText("Index page")).not.toBeInTheDocument();
    expect(await screen.findByText("Index page", {}, { timeout: 2000 })).toBeInTheDocument();
  });

  it("shows the verification panel with 'Back to Signup' when the server says the address is not verified", async () => {
    createUser.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(
      jsonResponse({ error: "Not verified", code: ERROR_CODES.emailNotVerified }, 403),
    );
    renderSignup();
    const user = await fillAndSubmit();
    expect(await screen.findByRole("heading", { name: "Verify your email" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Resend Verification Email" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Back to Signup" }));
    expect(screen.getByLabelText("Name")).toHaveValue("Ada Lovelace");
    expect(screen.getByLabelText("Password")).toHaveValue("");
  });

  it.each([
    ["auth/email-already-in-use", "An account with this email already exists. Please sign in instead."],
    ["auth/weak-password", "This password is too weak. Please choose a stronger one."],
    ["auth/network-request-failed", "Network error. Please try again."],
    ["auth/internal-error", "Firebase signup failed. Please try again."],
  ])("shows Firebase's %s as its message", async (code, message) => {
    createUser.mockRejectedValue(Object.assign(new Error("x"), { code }));
    renderSignup();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Create Account" })).toBeEnabled();
  });

  it.each([
    [
      "the server's message",
      jsonResponse({ error: "Conflict", message: "Company already exists" }, 409),
      "Company already exists",
    ],
    [
      "a fixed message without one",
      new Response("<html>", { status: 500 }),
      "Signup failed. Please try again.",
    ],
    [
      "'Something went wrong' for an answer that is not a JSON object",
      new Response("<html>", { status: 200 }),
      "Something went wrong. Please try again.",
    ],
  ])("shows %s when the backend fails", async (_, response, message) => {
    createUser.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(response);
    renderSignup();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    // The Firebase user the backend did not take is deleted, so a retry can create it again.
    expect(discardNewFirebaseUser).toHaveBeenCalled();
    expect(signOutOfFirebase).toHaveBeenCalled();
  });
});

describe("/signup with GitHub", () => {
  it("posts the GitHub identity to /auth/github-signup and goes on after a second", async () => {
    gitHub.mockResolvedValue(GITHUB_IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse(SIGNED_IN));
    const user = userEvent.setup();
    renderSignup("/signup?redirectTo=%2Fhome");
    await user.click(await screen.findByRole("button", { name: "Sign up with GitHub" }));

    expect(await screen.findByText("Account created successfully! Welcome!")).toBeInTheDocument();
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe("/auth/github-signup");
    expect(JSON.parse(String(init?.body))).toEqual({
      email: "ada@example.com",
      displayName: "Ada",
      photoURL: "https://avatars.example/ada.png",
      screenName: "ada",
      localId: "gh-uid",
      oauthAccessToken: "gho_token",
      scopes: ["user:email", "read:user"],
      idToken: "gh-id-token",
    });
    expect(signOutOfFirebase).toHaveBeenCalled();
    expect(await screen.findByText("Home page", {}, { timeout: 2000 })).toBeInTheDocument();
  });

  it.each([
    [404, "Failed to create account with GitHub. Please try again."],
    [401, "Authentication failed. Please try again."],
    [403, "Access denied. Please contact support."],
    [500, "Failed to fetch user data."],
  ])("answers a %i with its message", async (status, message) => {
    gitHub.mockResolvedValue(GITHUB_IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse({ error: "x" }, status));
    const user = userEvent.setup();
    renderSignup();
    await user.click(await screen.findByRole("button", { name: "Sign up with GitHub" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(screen.queryByText("Signup page")).not.toBeInTheDocument();
  });

  it("says so when GitHub gives no e-mail, without calling the backend", async () => {
    gitHub.mockResolvedValue({ ...GITHUB_IDENTITY, email: null });
    const user = userEvent.setup();
    renderSignup();
    await user.click(await screen.findByRole("button", { name: "Sign up with GitHub" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("GitHub email not available.");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("locks the e-mail form while the popup is open", async () => {
    gitHub.mockReturnValue(new Promise(() => {}));
    const user = userEvent.setup();
    renderSignup();
    await user.click(await screen.findByRole("button", { name: "Sign up with GitHub" }));
    expect(screen.getByRole("button", { name: "Create Account" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Sign up with GitHub" })).toHaveAttribute("aria-busy", "true");
  });
});
