import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  PAYMENT_FAILURE_REDIRECT_MS,
  PAYMENT_POLL_INTERVAL_MS,
  PAYMENT_POLL_TIMEOUT_MS,
} from "../../shared/constants.ts";
import type { ValidateSessionResponse } from "../../shared/contract/billing.ts";
import { PAYMENT_MESSAGES } from "../../shared/contract/billing.ts";
import {
  type AnswersInTurn,
  gateway,
  jsonResponse,
  nextAnswer,
  restoreFetch,
} from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import PaymentSuccess, { loader } from "./payment-success";

const VALIDATE = "/api/subscription/stripe/validate-session/cs_1";
const fetchMock = vi.fn<typeof fetch>();
/** The validation answers, call by call (the last one again). */
let answers: AnswersInTurn;

function validation(overrides: Partial<ValidateSessionResponse> = {}): ValidateSessionResponse {
  return {
    isValid: false,
    alreadyProcessed: false,
    session: null,
    message: "Payment not completed yet",
    validationChecks: { sessionAlreadyUsed: false },
    ...overrides,
  };
}

const PAID = validation({
  isValid: true,
  message: "Payment verified",
  session: {
    customerEmail: "ada@example.com",
    amount: 5700,
    currency: "usd",
    createdAt: "2026-11-23T10:00:00.000Z",
  },
});

beforeEach(() => {
  // Timers run with the clock (so findBy* works) and can be moved on by hand.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldAdvanceTime: true });
  vi.stubGlobal("fetch", fetchMock);
  answers = [() => jsonResponse(validation())];
  fetchMock.mockImplementation(async (input) => {
    const answer = String(input) === VALIDATE ? nextAnswer(answers) : undefined;
    if (answer) return answer;
    throw new Error(`unexpected fetch ${String(input)}`);
  });
});
afterEach(() => restoreFetch(fetchMock));

/** Shows where a redirect led, and the error it carries. */
function WhereProbe() {
  const location = useLocation();
  return <p>Went to {`${location.pathname} (${new URLSearchParams(location.search).get("error")})`}</p>;
}

function renderPaymentSuccess(query: string, options: { strict?: boolean } = {}) {
  renderPage({ path: "payment-success", loader, Component: PaymentSuccess }, `/payment-success${query}`, {
    strict: options.strict,
    extra: [{ path: "payment-cancel", Component: WhereProbe }],
  });
}

const validations = () => fetchMock.mock.calls.filter(([url]) => String(url) === VALIDATE);
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe("/payment-success", () => {
  it("polls every 2 s until the payment is valid, then shows its details", async () => {
    answers = [() => jsonResponse(validation()), () => jsonResponse(validation()), () => jsonResponse(PAID)];
    renderPaymentSuccess("?session_id=cs_1", { strict: true });
    expect(await screen.findByRole("status")).toHaveTextContent("Verifying your payment…");
    await vi.waitFor(() => expect(validations()).toHaveLength(1));
    await advance(PAYMENT_POLL_INTERVAL_MS);
    expect(validations()).toHaveLength(2);
    await advance(PAYMENT_POLL_INTERVAL_MS);

    const details = await screen.findByRole("region", { name: "Payment Successful" });
    expect(within(details).getByText("ada@example.com")).toBeVisible();
    expect(within(details).getByText("$57.00")).toBeVisible();
    expect(within(details).getByText("23 Nov 2026")).toBeVisible();
    expect(within(details).getByText("Completed")).toBeVisible();
    expect(within(details).getByRole("link", { name: "View Subscriptions" })).toHaveAttribute(
      "href",
      "/subscriptions",
    );
    expect(within(details).getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/home");
    await advance(PAYMENT_POLL_INTERVAL_MS * 3);
    expect(validations()).toHaveLength(3);
  });

  it("counts an already processed session as confirmed", async () => {
    answers = [() => jsonResponse({ ...PAID, isValid: false, alreadyProcessed: true })];
    renderPaymentSuccess("?session_id=cs_1");
    expect(await screen.findByRole("heading", { name: "Payment Successful" })).toBeInTheDocument();
  });

  it("says 'Payment verification pending' when confirmed without payment details", async () => {
    answers = [() => jsonResponse(validation({ isValid: true }))];
    renderPaymentSuccess("?session_id=cs_1");
    expect(await screen.findByRole("heading", { name: PAYMENT_MESSAGES.pending })).toBeInTheDocument();
  });

  it.each([
    ["nothing answers", () => Promise.reject(new TypeError("offline"))],
    ["the backend fails", () => Promise.resolve(jsonResponse({ error: "Stripe unavailable" }, 502))],
  ])("keeps polling while %s", async (_, failure) => {
    answers = [failure, () => jsonResponse(PAID)];
    renderPaymentSuccess("?session_id=cs_1");
    await vi.waitFor(() => expect(validations()).toHaveLength(1));
    await advance(PAYMENT_POLL_INTERVAL_MS);
    expect(await screen.findByRole("heading", { name: "Payment Successful" })).toBeInTheDocument();
  });

  it("times out after 30 s, then goes to /payment-cancel with the error after 3 s", async () => {
    renderPaymentSuccess("?session_id=cs_1");
    await vi.waitFor(() => expect(validations()).toHaveLength(1));
    // A margin for the real time the timers also follow.
    await advance(PAYMENT_POLL_TIMEOUT_MS - 500);
    expect(screen.queryByRole("alert")).toBeNull();
    await advance(500);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(PAYMENT_MESSAGES.timedOut);
    expect(validations().length).toBe(PAYMENT_POLL_TIMEOUT_MS / PAYMENT_POLL_INTERVAL_MS);
    for (const name of ["Back to Subscriptions", "Go to Dashboard"]) {
      expect(within(alert).getByRole("link", { name })).toBeVisible();
    }
    await advance(PAYMENT_FAILURE_REDIRECT_MS - 500);
    expect(screen.queryByText(/Went to/)).toBeNull();
    await advance(500);
    expect(
      await screen.findByText(`Went to /payment-cancel (${PAYMENT_MESSAGES.timedOut})`),
    ).toBeInTheDocument();
  });

  it("keeps polling a session the backend does not know (404) until the timeout", async () => {
    answers = [() => jsonResponse({ error: "Unable to verify session" }, 404)];
    renderPaymentSuccess("?session_id=cs_1");
    await vi.waitFor(() => expect(validations()).toHaveLength(1));
    await advance(PAYMENT_POLL_INTERVAL_MS * 2);
    expect(validations()).toHaveLength(3);
    expect(screen.queryByRole("alert")).toBeNull();
    await advance(PAYMENT_POLL_TIMEOUT_MS - PAYMENT_POLL_INTERVAL_MS * 2);
    expect(await screen.findByRole("alert")).toHaveTextContent(PAYMENT_MESSAGES.timedOut);
    expect(validations().length).toBe(PAYMENT_POLL_TIMEOUT_MS / PAYMENT_POLL_INTERVAL_MS);
  });

  it("Try Again validates again and stops the redirect", async () => {
    answers = [() => jsonResponse({ error: "Unable to verify session" }, 404)];
    renderPaymentSuccess("?session_id=cs_1");
    await vi.waitFor(() => expect(validations()).toHaveLength(1));
    await advance(PAYMENT_POLL_TIMEOUT_MS);
    const alert = await screen.findByRole("alert");
    answers = [() => jsonResponse(PAID)];
    await userEvent.click(within(alert).getByRole("button", { name: "Try Again" }));
    expect(await screen.findByRole("heading", { name: "Payment Successful" })).toBeInTheDocument();
    await advance(PAYMENT_FAILURE_REDIRECT_MS * 2);
    expect(screen.queryByText(/Went to/)).toBeNull();
  });

  it("without a session id: the error at once, no call, /payment-cancel after 3 s", async () => {
    renderPaymentSuccess("");
    expect(await screen.findByRole("alert")).toHaveTextContent(PAYMENT_MESSAGES.missingSessionId);
    await advance(PAYMENT_FAILURE_REDIRECT_MS);
    expect(
      await screen.findByText(`Went to /payment-cancel (${PAYMENT_MESSAGES.missingSessionId})`),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("back from the billing portal (portal=1): confirmed at once, no call", async () => {
    renderPaymentSuccess("?portal=1");
    expect(await screen.findByRole("heading", { name: "Billing details updated" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "View Subscriptions" })).toHaveAttribute(
      "href",
      "/subscriptions",
    );
    await advance(PAYMENT_FAILURE_REDIRECT_MS * 2);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByText(/Went to/)).toBeNull();
  });

  it("sends a guest to /login, remembering the query", async () => {
    renderPage(
      { path: "payment-success", loader, Component: PaymentSuccess },
      "/payment-success?session_id=cs_1",
      {
        value: gateway({ session: null }),
      },
    );
    expect(await screen.findByText(/Login page/)).toHaveTextContent(
      `redirectTo=${encodeURIComponent("/payment-success?session_id=cs_1")}`,
    );
  });
});
