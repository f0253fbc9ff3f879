import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderRoute } from "../../tests/support/client/render-route";
import ResetPassword from "./reset-password";

const fetchMock = vi.fn<typeof fetch>();
const LINK = "/reset-password?mode=resetPassword&oobCode=code-123";
const NEW_PASSWORD = "N3w-Secret!";

beforeEach(() => vi.stubGlobal("fetch", fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

async function submit(password = NEW_PASSWORD, confirmation = password) {
  const user = userEvent.setup();
  renderRoute("reset-password", ResetPassword, LINK);
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
    renderRoute("reset-password", ResetPassword, url);
    await screen.findByRole("link", { name: "Request a new link" });
    expectInvalidLinkView("This password reset link is invalid or incomplete.");
  });

  it("applies the strong-password rule once touched, and the confirmation must match", async () => {
    const user = userEvent.setup();
    renderRoute("reset-password", ResetPassword, LINK);
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
    fetchMock.mockResolvedValue(jsonResponse({ success: true }));
    const user = await submit();
    await user.click(screen.getByRole("button", { name: "Reset Password" }));

    expect(await screen.findByRole("status")).toHaveTextContent(
      "Your password has been reset. Sign in with your new password.",
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe("/auth/reset-password");
    expect(JSON.parse(String(init?.body))).toEqual({ oobCode: "code-123", newPassword: NEW_PASSWORD });
    expect(screen.getByRole("button", { name: "Reset Password" })).toBeDisabled();

    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(screen.queryByText(/Login page/)).not.toBeInTheDocument();
    expect(
      await screen.findByText(
        /Login page.*Your password has been reset\. Sign in with your new password\./,
        {},
        { timeout: 2000 },
      ),
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
