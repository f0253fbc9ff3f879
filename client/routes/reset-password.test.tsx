import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RESET_REDIRECT_MS } from "../../shared/constants.ts";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderRoute } from "../../tests/support/client/render-route";
import ResetPassword, { loader } from "./reset-password";

const fetchMock = vi.fn<typeof fetch>();
const LINK = "/reset-password?mode=resetPassword&oobCode=code-123";
const NEW_PASSWORD = "N3w-Secret!";
/** The loader's check of the link, from the server to the backend. */
const CHECK = "http://backend.test/auth/reset-password/check";
/** What the backend answers the check. */
let checkAnswer: () => Response;

beforeEach(() => {
  checkAnswer = () => jsonResponse({ success: true });
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === CHECK ? checkAnswer() : fetchMock(input, init),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const renderReset = (url = LINK) => renderRoute("reset-password", ResetPassword, url, { loader });

async function submit(password = NEW_PASSWORD, confirmation = password) {
  const user = userEvent.setup();
  renderReset();
  await user.type(await screen.findByLabelText("New password"), password);
  await user.type(screen.getByLabelText("Confirm new password"), confirmation);
  await user.click(screen.getByRole("button", { name: "Reset Password" }));
  return user;
}

function expectInvalidLinkView(message: string) {
  expect(screen.getByRole("alert")).toHaveTextContent(message);
  expect(screen.getByRole("link", { name: "Request a new link" })).toHaveAttribute(
    "href",
    "/forgot-password",
  );
  expect(screen.getByRole("link", { name: "Back to Login" })).toHaveAttribute("href", "/login");
  expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
}

describe("/reset-password", () => {
  it.each([
    ["no parameters", "/reset-password"],
    ["another mode", "/reset-password?mode=verifyEmail&oobCode=code-123"],
    ["no code", "/reset-password?mode=resetPassword"],
    ["an empty code", "/reset-password?mode=resetPassword&oobCode="],
  ])("shows the invalid-link view for %s", async (_, url) => {
    renderReset(url);
    await screen.findByRole("link", { name: "Request a new link" });
    expectInvalidLinkView("This password reset link is invalid or incomplete.");
  });

  it("says at once that a used or expired link cannot be used, with a way to ask for a new one", async () => {
    const message = "This password reset link is invalid or has expired. Please request a new one.";
    checkAnswer = () => jsonResponse({ error: message }, 400);
    renderReset();
    await screen.findByRole("link", { name: "Request a new link" });
    expectInvalidLinkView(message);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the form when the backend cannot check the link: the reset itself will tell", async () => {
    checkAnswer = () => jsonResponse({ error: "Identity service unavailable" }, 503);
    renderReset();
    expect(await screen.findByLabelText("New password")).toBeEnabled();
  });

  it("applies the strong-password rule once touched, and the confirmation must match", async () => {
    const user = userEvent.setup();
    renderReset();
    await user.type(await screen.findByLabelText("New password"), "short");
    expect(screen.queryByText("Must be at least 8 characters")).not.toBeInTheDocument();
    await user.tab();
    expect(await screen.findByText("Must be at least 8 characters")).toBeInTheDocument();

    await user.clear(screen.getByLabelText("New password"));
    await user.type(screen.getByLabelText("New password"), "my password 1A!");
    expect(await screen.findByText('Password must not contain the word "password".')).toBeInTheDocument();

    await user.clear(screen.getByLabelText("New password"));
    await user.type(screen.getByLabelText("New password"), NEW_PASSWORD);
    await user.type(screen.getByLabelText("Confirm new password"), "N3w-Secret");
    await user.tab();
    expect(await screen.findByText("Passwords do not match")).toBeInTheDocument();
    // Changing the password re-checks a touched confirmation.
    await user.type(screen.getByLabelText("Confirm new password"), "!");
    expect(screen.queryByText("Passwords do not match")).not.toBeInTheDocument();
  });

  it("refuses to submit while invalid", async () => {
    await submit(NEW_PASSWORD, "Other-Pass1!");
    expect(await screen.findByText("Passwords do not match")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("posts the code and the new password once, then goes to /login with a message after two seconds", async () => {
    // Timers run with the clock (so findBy* works) and are moved on by hand past the redirect's delay.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldAdvanceTime: true });
    let answer = (_: Response) => {};
    fetchMock.mockReturnValue(new Promise<Response>((resolve) => (answer = resolve)));
    const user = await submit();
    // A second click while the first is on its way sends nothing more.
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    answer(jsonResponse({ success: true }));

    expect(await screen.findByRole("status")).toHaveTextContent(
      "Your password has been reset. Sign in with your new password.",
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe("/auth/reset-password");
    expect(JSON.parse(String(init?.body))).toEqual({ oobCode: "code-123", newPassword: NEW_PASSWORD });
    // The code is spent: no form is left to use until the redirect.
    expect(screen.queryByRole("button", { name: "Reset Password" })).toBeNull();
    expect(screen.queryByLabelText("New password")).toBeNull();
    expect(screen.queryByLabelText("Confirm new password")).toBeNull();
    expect(screen.getByRole("link", { name: "Back to Login" })).toHaveAttribute("href", "/login");

    await act(() => vi.advanceTimersByTimeAsync(RESET_REDIRECT_MS - 250));
    expect(screen.queryByText(/Login page/)).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(250));
    expect(
      await screen.findByText(/Login page.*Your password has been reset\. Sign in with your new password\./),
    ).toBeInTheDocument();
  });

  it("shows the server's message with the invalid-link links for an expired or used code (400)", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ error: "Bad request", message: "The reset link has expired. Ask for a new one." }, 400),
    );
    await submit();
    await screen.findByRole("link", { name: "Request a new link" });
    expectInvalidLinkView("The reset link has expired. Ask for a new one.");
  });

  it.each([
    ["the server's message", () => jsonResponse({ error: "x", message: "Try later" }, 503), "Try later"],
    [
      "a fallback without one",
      () => new Response("", { status: 500 }),
      "Failed to reset the password. Please try again.",
    ],
  ])("shows %s for other failures and keeps the form", async (_, respond, message) => {
    fetchMock.mockImplementation(async () => respond());
    await submit();
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(screen.getByRole("button", { name: "Reset Password" })).toBeEnabled();
  });
});
