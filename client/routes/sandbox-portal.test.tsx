import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Subscription } from "../../shared/contract/billing.ts";
import { subscription } from "../../tests/support/client/billing-fixtures";
import { contextWith, gateway, jsonResponse, thrownStatusOf } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import SandboxPortal, { loader } from "./sandbox-portal";

const fetchMock = vi.fn<typeof fetch>();
/** undefined answers 404 (billing through Stripe). */
let held: Subscription | null | undefined;

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  held = subscription({ meta: { cancellation_request: { stripe_cancel_at: "2026-12-13T00:00:00.000Z" } } });
  fetchMock.mockImplementation(async (input) => {
    if (String(input) === "http://backend.test/api/subscription/sandbox/portal") {
      return held === undefined
        ? jsonResponse({ error: "Not found" }, 404)
        : jsonResponse({ success: true, subscription: held });
    }
    throw new Error(`unexpected fetch ${String(input)}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe("/sandbox/portal", () => {
  it("is a 404 when billing goes through Stripe", async () => {
    held = undefined;
    const request = new Request("http://gateway.test/sandbox/portal");
    const loading = loader({ context: contextWith(gateway()), request, params: {} } as never);
    expect(await thrownStatusOf(loading)).toBe(404);
  });

  it("says it is a sandbox, shows the subscription and returns to /payment-success?portal=1", async () => {
    renderPage({ path: "sandbox/portal", loader, Component: SandboxPortal }, "/sandbox/portal");
    expect(await screen.findByRole("heading", { name: "Sandbox billing portal" })).toBeInTheDocument();
    expect(screen.getByText("Sandbox")).toBeVisible();
    expect(screen.getByText("Pro")).toBeVisible();
    expect(screen.getByText("Active")).toBeVisible();
    expect(screen.getAllByText("13 Dec 2026")).toHaveLength(2);
    expect(screen.getByRole("link", { name: "Return to the app" })).toHaveAttribute(
      "href",
      "/payment-success?portal=1",
    );
  });

  it("says when there is no subscription yet", async () => {
    held = null;
    renderPage({ path: "sandbox/portal", loader, Component: SandboxPortal }, "/sandbox/portal");
    expect(await screen.findByText("No subscription yet.")).toBeVisible();
  });
});
