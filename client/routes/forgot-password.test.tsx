import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderRoute } from "../../tests/support/client/render-route";
import ForgotPassword from "./forgot-password";

const fetchMock = vi.fn<typeof fetch>();
const SENT = "If an account exists for this address, we sent a reset link.";

beforeEach(() => vi.stubGlobal("fetch", fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

async function submit(email = "ada@example.com", options?: { localMode?: boolean }) {
  const user = userEvent.setup();
  renderRoute("forgot-password", ForgotPassword, "/forgot-password", options);
  await user.type(await screen.findByLabelText("Email"), email);
  await user.click(screen.getByRole("button", { name: "Send Reset Link" }));
  return user;
}

describe("/forgot-password", () => {
  it("shows the form and the way back", async () => {
    renderRoute("forgot-password", ForgotPassword, "/forgot-password");
    expect(await screen.findByLabelText("Email")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Login" })).toHaveAttribute("href", "/login");
  });

  it("checks the address once touched, and on submit without calling the server", async () => {
    const user = userEvent.setup();
    renderRoute("forgot-password", ForgotPassword, "/forgot-password");
    await user.click(await screen.findByRole("button", { name: "Send Reset Link" }));
    expect(await screen.findByText("This field is required")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), "nope");
    await user.tab();
    expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("posts the address once and shows the server's message, whatever it says about the account", async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const user = await submit(" ada@example.com ");
    const button = screen.getByRole("button", { name: "Send Reset Link" });
    expect(button).toHaveAttribute("aria-busy", "true");
    await user.click(button);
    answer(jsonResponse({ message: SENT }));

    expect(await screen.findByRole("status")).toHaveTextContent(SENT);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe("/auth/forgot-password");
    expect(JSON.parse(String(init?.body))).toEqual({ email: "ada@example.com" });
    expect(screen.getByRole("link", { name: "Back to Login" })).toHaveAttribute("href", "/login");
    expect(screen.queryByRole("link", { name: "Local mode: open the outbox" })).not.toBeInTheDocument();
  });

  it("links to the outbox in local mode", async () => {
    fetchMock.mockResolvedValue(jsonResponse({ message: SENT }));
    await submit("ada@example.com", { localMode: true });
    expect(await screen.findByRole("link", { name: "Local mode: open the outbox" })).toHaveAttribute(
      "href",
      "/outbox",
    );
  });

  it.each([
    [
      "the server's message",
      () => jsonResponse({ error: "x", message: "Too many requests. Please try again later." }, 429),
      "Too many requests. Please try again later.",
    ],
    [
      "a fallback without one",
      () => new Response("<html>", { status: 500 }),
      "Failed to send the reset link. Please try again.",
    ],
    [
      "the fallback when nothing answers",
      () => {
        throw new TypeError("offline");
      },
      "Failed to send the reset link. Please try again.",
    ],
  ])("shows %s on failure and lets the visitor try again", async (_, respond, message) => {
    fetchMock.mockImplementation(async () => respond());
    await submit();
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(screen.getByRole("button", { name: "Send Reset Link" })).toBeEnabled();
  });
});
