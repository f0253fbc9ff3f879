import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES } from "../../shared/contract/billing.ts";
import { gateway } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import PaymentCancel, { loader } from "./payment-cancel";

function renderPaymentCancel(query: string, guest = false) {
  renderPage({ path: "payment-cancel", loader, Component: PaymentCancel }, `/payment-cancel${query}`, {
    value: guest ? gateway({ session: null }) : gateway(),
  });
}

describe("/payment-cancel", () => {
  it("says the payment was cancelled, that no charge was made, and the common causes", async () => {
    renderPaymentCancel("");
    expect(await screen.findByRole("alert")).toHaveTextContent(PAYMENT_MESSAGES.cancelled);
    expect(screen.getByText("No charge was made.")).toBeVisible();
    expect(
      within(screen.getByRole("list", { name: "Common causes" })).getAllByRole("listitem").length,
    ).toBeGreaterThan(0);
    expect(screen.getByRole("link", { name: "Try Again" })).toHaveAttribute("href", "/subscriptions");
    expect(screen.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/home");
  });

  it("shows the error the query carries instead", async () => {
    renderPaymentCancel(`?${new URLSearchParams({ error: PAYMENT_MESSAGES.timedOut })}`);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(PAYMENT_MESSAGES.timedOut);
    expect(alert).not.toHaveTextContent(PAYMENT_MESSAGES.cancelled);
  });

  it("sends a guest to /login", async () => {
    renderPaymentCancel("", true);
    expect(await screen.findByText(/Login page/)).toHaveTextContent("redirectTo=%2Fpayment-cancel");
  });
});
