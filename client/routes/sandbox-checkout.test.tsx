import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SandboxCheckout as Checkout } from "../../shared/contract/billing.ts";
import { SUBSCRIPTION_MESSAGES } from "../../shared/contract/billing.ts";
import { sandboxCheckout } from "../../tests/support/client/billing-fixtures";
import { contextWith, gateway, jsonResponse, thrownStatusOf } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import SandboxCheckout, { loader } from "./sandbox-checkout";

const SESSION = "http://backend.test/api/subscription/sandbox/sessions/cs_sandbox_1";
const fetchMock = vi.fn<typeof fetch>();
/** The session the backend holds; null answers 404 (billing through Stripe). */
let checkout: Checkout | null;
let finish: () => Response;

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  checkout = sandboxCheckout();
  finish = () => jsonResponse({ url: "/payment-success?session_id=cs_sandbox_1" });
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === SESSION) {
      return checkout
        ? jsonResponse({ success: true, data: checkout })
        : jsonResponse({ error: "Not found" }, 404);
    }
    if (init?.method === "POST" && url.startsWith("/api/subscription/sandbox/sessions/cs_sandbox_1/")) {
      return url.endsWith("/cancel") ? jsonResponse({ url: "/payment-cancel" }) : finish();
    }
    throw new Error(`unexpected fetch ${url}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const PAGE_URL = "/sandbox/checkout?session_id=cs_sandbox_1";

async function load(url: string) {
  const request = new Request(`http://gateway.test${url}`);
  return loader({ context: contextWith(gateway()), request, params: {}, url: new URL(request.url) } as never);
}

/** Shows where a button led, path and query. */
function WhereProbe() {
  const location = useLocation();
  return <p>Went to {`${location.pathname}${location.search}`}</p>;
}

function renderSandboxCheckout() {
  renderPage({ path: "sandbox/checkout", loader, Component: SandboxCheckout }, PAGE_URL, {
    extra: [
      { path: "payment-success", Component: WhereProbe },
      { path: "payment-cancel", Component: WhereProbe },
    ],
  });
}

describe("/sandbox/checkout loader", () => {
  it("is a 404 without a session id, and when billing goes through Stripe", async () => {
    expect(await thrownStatusOf(load("/sandbox/checkout"))).toBe(404);
    checkout = null;
    expect(await thrownStatusOf(load(PAGE_URL))).toBe(404);
  });
});

describe("/sandbox/checkout page", () => {
  it("says it is a sandbox and shows the plan, seats, amount and e-mail", async () => {
    renderSandboxCheckout();
    expect(await screen.findByRole("heading", { name: "Sandbox checkout" })).toBeInTheDocument();
    expect(screen.getByText("Sandbox")).toBeVisible();
    expect(screen.getByText(/stands in for Stripe's checkout/)).toBeVisible();
    expect(screen.getByText("Pro · Upgrade to Pro")).toBeVisible();
    expect(screen.getByText("3")).toBeVisible();
    expect(screen.getByText("$19.00")).toBeVisible();
    expect(screen.getByText("$57.00")).toBeVisible();
    expect(screen.getByText("ada@example.com")).toBeVisible();
  });

  it("Pay completes the session and goes where the backend answers", async () => {
    renderSandboxCheckout();
    await userEvent.click(await screen.findByRole("button", { name: "Pay $57.00" }));
    expect(await screen.findByText("Went to /payment-success?session_id=cs_sandbox_1")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/subscription/sandbox/sessions/cs_sandbox_1/complete",
      expect.objectContaining({ method: "POST" }),
    );
  });

  it("Cancel cancels the session and goes where the backend answers", async () => {
    renderSandboxCheckout();
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(await screen.findByText("Went to /payment-cancel")).toBeInTheDocument();
  });

  it("a failing Pay says so and stays", async () => {
    finish = () => jsonResponse({ error: "Gone" }, 409);
    renderSandboxCheckout();
    await userEvent.click(await screen.findByRole("button", { name: "Pay $57.00" }));
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.requestFailed)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Pay $57.00" })).toBeEnabled();
  });

  it("a session no longer open cannot be paid", async () => {
    checkout = sandboxCheckout({ status: "complete" });
    renderSandboxCheckout();
    expect(await screen.findByText(/This checkout is complete/)).toBeVisible();
    expect(screen.queryByRole("button", { name: /Pay/ })).toBeNull();
    expect(screen.getByRole("link", { name: "Back to Subscriptions" })).toHaveAttribute(
      "href",
      "/subscriptions",
    );
  });
});
