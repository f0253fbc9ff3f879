import { act, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VERIFICATION_REDIRECT_MS } from "../../shared/constants.ts";
import { renderRoute } from "../../tests/support/client/render-route";
import { applyVerificationCode } from "../features/accounts/firebase-auth";
import EmailVerified from "./email-verified";

vi.mock("../features/accounts/firebase-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../features/accounts/firebase-auth")>()),
  applyVerificationCode: vi.fn(),
}));

const apply = vi.mocked(applyVerificationCode);
const LINK = "/email-verified?mode=verifyEmail&oobCode=code-123";

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

function expectErrorView(message: string) {
  expect(screen.getByRole("alert")).toHaveTextContent(message);
  expect(screen.getByRole("link", { name: "Go to Login" })).toHaveAttribute("href", "/login");
  expect(screen.getByRole("link", { name: "Sign up again" })).toHaveAttribute("href", "/signup");
}

describe("/email-verified", () => {
  it.each([
    ["no parameters", "/email-verified"],
    ["another mode", "/email-verified?mode=resetPassword&oobCode=code-123"],
    ["no code", "/email-verified?mode=verifyEmail"],
  ])("says the link is invalid for %s, without asking Firebase", async (_, url) => {
    renderRoute("email-verified", EmailVerified, url);
    await screen.findByRole("alert");
    expectErrorView("Invalid verification link");
    expect(apply).not.toHaveBeenCalled();
  });

  it("shows that it is verifying while Firebase applies the code", async () => {
    apply.mockReturnValue(new Promise(() => {}));
    renderRoute("email-verified", EmailVerified, LINK);
    expect(await screen.findByRole("status")).toHaveTextContent("Verifying your email…");
    // The status shows before the lazily loaded Firebase SDK makes the call (late on a busy machine,
    // which once left this call to land in the next test).
    await waitFor(() => expect(apply).toHaveBeenCalledTimes(1));
    expect(apply).toHaveBeenCalledWith(expect.objectContaining({ projectId: "demo-argus" }), "code-123");
  });

  it("applies the code once, confirms, then goes to /login with a message after three seconds", async () => {
    // Timers run with the clock (so findBy* works) and are moved on by hand past the redirect's delay.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldAdvanceTime: true });
    apply.mockResolvedValue();
    renderRoute("email-verified", EmailVerified, LINK);
    expect(await screen.findByText("Your email has been verified. You can sign in now.")).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(VERIFICATION_REDIRECT_MS - 250));
    expect(screen.queryByText(/Login page/)).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(250));
    expect(
      await screen.findByText(/Login page.*Your email has been verified\. You can sign in now\./),
    ).toBeInTheDocument();
    expect(apply).toHaveBeenCalledTimes(1);
  });

  it.each([
    ["auth/invalid-action-code", "This verification link is invalid or has already been used."],
    ["auth/expired-action-code", "This verification link has expired. Sign in to get a new one."],
    ["auth/user-disabled", "This account has been disabled. Please contact support."],
    ["auth/internal-error", "Verification failed"],
    [undefined, "Verification failed"],
  ])("answers Firebase's %s with its message and the links on", async (code, message) => {
    apply.mockRejectedValue(code ? Object.assign(new Error("x"), { code }) : new Error("boom"));
    renderRoute("email-verified", EmailVerified, LINK);
    await screen.findByRole("alert");
    expectErrorView(message);
  });
});
