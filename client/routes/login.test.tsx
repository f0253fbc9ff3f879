import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BrowserSignInResponse } from "../../shared/contract/accounts.ts";
import { ERROR_CODES } from "../../shared/contract/common.ts";
import { jsonResponse, rootData } from "../../tests/support/client/fixtures";
import { HomeProbe, IndexProbe, NoFallback, PassThrough } from "../../tests/support/client/stub-routes";
import { ToastProvider } from "../components/ui";
import { signInWithEmail, signOutOfFirebase, warmUpFirebaseAuth } from "../features/accounts/firebase-auth";
import Login from "./login";

vi.mock("../features/accounts/firebase-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../features/accounts/firebase-auth")>()),
  warmUpFirebaseAuth: vi.fn(),
  signInWithEmail: vi.fn(),
  // Never open a real popup (GitHub sign-in is tested in login-github.test.tsx).
  signInWithGitHub: vi.fn(() => new Promise(() => {})),
  signOutOfFirebase: vi.fn(async () => {}),
}));

const signIn = vi.mocked(signInWithEmail);
const warmUpFirebase = vi.mocked(warmUpFirebaseAuth);
const fetchMock = vi.fn<typeof fetch>();

const IDENTITY = {
  idToken: "id-token",
  uid: "fb-uid",
  email: "ada@example.com",
  name: "Ada",
  avatarUrl: null,
};

/** The gateway's answer to a sign-in (the token stays with the gateway). */
const SIGNED_IN: BrowserSignInResponse = {
  user: { id: "user-1", email: "ada@example.com", name: "Ada", role: "owner" },
  org: { org_id: "org-1", name: "Analytical Engines" },
};
const NOT_VERIFIED = { error: "Email not verified", code: ERROR_CODES.emailNotVerified };

function renderLogin(url = "/login") {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => rootData(),
      HydrateFallback: NoFallback,
      Component: PassThrough,
      children: [
        { path: "login", Component: Login },
        { path: "home", Component: HomeProbe },
        { index: true, Component: IndexProbe },
      ],
    },
  ]);
  render(
    <ToastProvider>
      <Stub initialEntries={[url]} />
    </ToastProvider>,
  );
}

async function fillAndSubmit(email = "ada@example.com", password = "secret1") {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Sign in with Email" }));
  return user;
}

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  fetchMock.mockReset();
});

describe("/login form", () => {
  it("shows the title, subtitle, links and both sign-in buttons", async () => {
    renderLogin();
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome" })).toBeInTheDocument();
    expect(screen.getByText("AI-powered code review assistant")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Forgot Password" })).toHaveAttribute("href", "/forgot-password");
    expect(screen.getByRole("link", { name: /create an account/i })).toHaveAttribute("href", "/signup");
    expect(screen.getByRole("button", { name: "Sign in with GitHub" })).toBeEnabled();
  });

  it("shows a field's error only after it is touched", async () => {
    const user = userEvent.setup();
    renderLogin();
    const email = await screen.findByLabelText("Email");
    await user.type(email, "not-an-email");
    expect(screen.queryByText("Please enter a valid email address")).not.toBeInTheDocument();

    await user.tab(); // leaves the email field
    expect(screen.getByText("Please enter a valid email address")).toBeInTheDocument();
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Please enter a valid email address");

    await user.type(screen.getByLabelText("Password"), "12345");
    await user.tab();
    expect(screen.getByText("Must be at least 6 characters")).toBeInTheDocument();
  });

  it("marks every field on submit and does not call Firebase while invalid", async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByRole("button", { name: "Sign in with Email" }));
    expect(screen.getAllByText("This field is required")).toHaveLength(2);
    expect(screen.getByLabelText("Email")).toHaveFocus();
    expect(signIn).not.toHaveBeenCalled();
  });

  it("shows a loading, disabled button while signing in", async () => {
    signIn.mockReturnValue(new Promise(() => {}));
    renderLogin();
    await fillAndSubmit();
    const button = screen.getByRole("button", { name: "Sign in with Email" });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute("aria-busy", "true");
    expect(screen.getByLabelText("Email")).toBeDisabled();
    expect(signIn).toHaveBeenCalledWith(
      expect.objectContaining({ projectId: "demo-argus" }),
      "ada@example.com",
      "secret1",
    );
  });

  it("signs in once when the form is submitted twice in a row", async () => {
    signIn.mockReturnValue(new Promise(() => {}));
    renderLogin();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "secret1");
    const form = screen.getByRole("form", { name: "Sign in" });
    fireEvent.submit(form);
    fireEvent.submit(form);
    await waitFor(() => expect(signIn).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signIn).toHaveBeenCalledTimes(1);
  });

  it("posts the ID token to /auth/login, then goes to the safe redirect target", async () => {
    signIn.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse(SIGNED_IN));
    renderLogin("/login?redirectTo=%2Fhome%3Ftab%3D1");
    await fillAndSubmit();

    expect(await screen.findByText("Signed in. Redirecting…")).toBeInTheDocument();
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe("/auth/login");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({
      email: "ada@example.com",
      firebase_uid: "fb-uid",
      idToken: "id-token",
      name: "Ada",
    });
    expect(signOutOfFirebase).toHaveBeenCalled();
    expect(await screen.findByText("Home page", {}, { timeout: 2000 })).toBeInTheDocument();
  });

  it("refuses an unsafe redirect target and goes to /", async () => {
    signIn.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse(SIGNED_IN));
    renderLogin("/login?redirectTo=%2F%2Fevil.example");
    await fillAndSubmit();
    expect(await screen.findByText("Index page", {}, { timeout: 2000 })).toBeInTheDocument();
  });

  it("maps Firebase error codes to the product's messages", async () => {
    signIn.mockRejectedValue(Object.assign(new Error("x"), { code: "auth/wrong-password" }));
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid password");
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Sign in with Email" })).toBeEnabled();
  });

  it("maps backend failures to the product's messages", async () => {
    signIn.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse({ error: "not found" }, 404));
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "User not found in system. Please contact support.",
    );
  });

  it("says the backend is unavailable when it cannot be reached", async () => {
    signIn.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(jsonResponse({ error: "Bad gateway" }, 502));
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Backend service unavailable. Please try again.",
    );
  });

  it("refuses a sign-in answer that is not a JSON object", async () => {
    signIn.mockResolvedValue(IDENTITY);
    fetchMock.mockResolvedValue(new Response("<html>", { status: 200 }));
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent("Backend authentication failed");
    expect(screen.queryByText("Signed in. Redirecting…")).not.toBeInTheDocument();
  });

  it("shows the server's message for other failures, and a fixed one when there is none", async () => {
    signIn.mockResolvedValue(IDENTITY);
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ error: "Conflict", message: "Account is being set up" }, 409))
      .mockResolvedValueOnce(
        new Response("<html>oops</html>", { status: 500, statusText: "Internal Server Error" }),
      );
    renderLogin();
    const user = await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent("Account is being set up");
    await user.click(screen.getByRole("button", { name: "Sign in with Email" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Backend authentication failed");
  });
});

describe("/login loading the sign-in code", () => {
  it("starts loading the Firebase SDK when the visitor focuses a field, not before", async () => {
    const user = userEvent.setup();
    renderLogin();
    const email = await screen.findByLabelText("Email");
    expect(warmUpFirebase).not.toHaveBeenCalled();
    await user.click(email);
    expect(warmUpFirebase).toHaveBeenCalledWith(expect.objectContaining({ projectId: "demo-argus" }));
    await user.click(screen.getByLabelText("Password"));
    // Each focus asks again; the SDK is fetched once and the instance kept.
    expect(warmUpFirebase).toHaveBeenCalledTimes(2);
  });

  it("starts loading it when the GitHub button is pressed", async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByRole("button", { name: "Sign in with GitHub" }));
    expect(warmUpFirebase).toHaveBeenCalledTimes(1);
  });
});

describe("/login verification-required panel", () => {
  it("replaces the form, resends (showing a failure) and goes back", async () => {
    signIn.mockResolvedValue(IDENTITY);
    fetchMock
      .mockResolvedValueOnce(jsonResponse(NOT_VERIFIED, 403))
      .mockResolvedValueOnce(jsonResponse({ error: "Not found" }, 404));
    renderLogin();
    const user = await fillAndSubmit();

    expect(await screen.findByRole("heading", { name: "Verify your email" })).toBeInTheDocument();
    expect(screen.getByText("ada@example.com")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign in with Email" })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Resend Verification Email" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Failed to resend verification email. Please try again.",
    );
    const [path, init] = fetchMock.mock.calls[1] ?? [];
    expect(path).toBe("/auth/resend-verification");
    expect(JSON.parse(String(init?.body))).toEqual({ email: "ada@example.com" });

    await user.click(screen.getByRole("button", { name: "Back to Login" }));
    expect(screen.getByRole("button", { name: "Sign in with Email" })).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveValue("ada@example.com");
  });

  it("confirms a successful resend", async () => {
    signIn.mockResolvedValue(IDENTITY);
    fetchMock
      .mockResolvedValueOnce(jsonResponse(NOT_VERIFIED, 403))
      .mockResolvedValueOnce(jsonResponse({ message: "sent" }));
    renderLogin();
    const user = await fillAndSubmit();
    await user.click(await screen.findByRole("button", { name: "Resend Verification Email" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Verification email sent again!");
  });
});
