import { act, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LOGIN_CALLBACK_TIMEOUT_MS } from "../../shared/constants.ts";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderRoute } from "../../tests/support/client/render-route";
import OAuthCallback from "./oauth-callback";

const fetchMock = vi.fn<typeof fetch>();
const SIGNED_IN = {
  user: { id: "user-1", email: "ada@example.com", name: "Ada", role: "owner" },
  org: { org_id: "org-1", name: "Engines" },
};

beforeEach(() => vi.stubGlobal("fetch", fetchMock));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

function renderCallback(url = "/oauth/callback/github?code=c0de") {
  renderRoute("oauth/callback/:provider", OAuthCallback, url);
}

function expectFailure(message: string) {
  expect(screen.getByRole("alert")).toHaveTextContent(message);
  expect(screen.getByRole("link", { name: "Retry Login" })).toHaveAttribute("href", "/login");
}

describe("/oauth/callback/{provider}", () => {
  it("fails at once without a code, calling nothing", async () => {
    renderCallback("/oauth/callback/github");
    await screen.findByRole("alert");
    expectFailure("No code or provider found in callback URL.");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows 'Signing you in...' while it waits, having posted the code once", async () => {
    fetchMock.mockReturnValue(new Promise(() => {}));
    renderCallback();
    expect(await screen.findByRole("status")).toHaveTextContent("Signing you in...");
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe("/auth/login/github");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ code: "c0de" });
  });

  it("goes to /home a second after success", async () => {
    fetchMock.mockResolvedValue(jsonResponse(SIGNED_IN));
    renderCallback();
    expect(await screen.findByText("Signed in. Redirecting…")).toBeInTheDocument();
    expect(screen.queryByText("Home page")).not.toBeInTheDocument();
    expect(await screen.findByText("Home page", {}, { timeout: 2000 })).toBeInTheDocument();
  });

  it.each([
    [401, "You are not allowed to login. Please contact support to get access."],
    [
      403,
      "Access denied. You don't have permission to use this application. Please reach out to support if you believe this is a mistake.",
    ],
    [500, "Something went wrong. Please try again."],
    [404, "Something went wrong. Please try again."],
  ])("answers a %i with its message and Retry Login", async (status, message) => {
    fetchMock.mockResolvedValue(jsonResponse({ error: "x" }, status));
    renderCallback();
    await screen.findByRole("alert");
    expectFailure(message);
  });

  it("says so when the network fails", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    renderCallback();
    await screen.findByRole("alert");
    expectFailure("Network error. Please try again.");
  });

  it("gives up after the callback timeout", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock.mockImplementation(
      (_, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        ),
    );
    renderCallback();
    await screen.findByRole("status");
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await act(() => vi.advanceTimersByTimeAsync(LOGIN_CALLBACK_TIMEOUT_MS - 100));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    await screen.findByRole("alert");
    expectFailure("Request timed out. Please try again.");
  });
});
