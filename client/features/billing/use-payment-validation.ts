import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import {
  PAYMENT_FAILURE_REDIRECT_MS,
  PAYMENT_POLL_INTERVAL_MS,
  PAYMENT_POLL_TIMEOUT_MS,
} from "../../../shared/constants.ts";
import type { PaymentSession } from "../../../shared/contract/billing.ts";
import { PAYMENT_MESSAGES } from "../../../shared/contract/billing.ts";
import { billingApi } from "./lazy-billing";

/** What /payment-success was opened with. */
export type PaymentReturn = { kind: "portal" } | { kind: "missing" } | { kind: "session"; sessionId: string };

export type Validation =
  | { state: "verifying" }
  | { state: "error"; message: string }
  /** `session` null: confirmed without payment details (back from the portal, or none answered). */
  | { state: "confirmed"; session: PaymentSession | null };

export const PAYMENT_CANCEL_PATH = "/payment-cancel";

function firstOf(from: PaymentReturn): Validation {
  if (from.kind === "portal") return { state: "confirmed", session: null };
  if (from.kind === "missing") return { state: "error", message: PAYMENT_MESSAGES.missingSessionId };
  return { state: "verifying" };
}

/**
 * docs/product.md#payment-validation: the portal is confirmed at once; a checkout is validated every
 * PAYMENT_POLL_INTERVAL_MS until it is paid (or was already applied) or PAYMENT_POLL_TIMEOUT_MS have
 * passed, whatever each answer says before then. An error goes to /payment-cancel, with its message, after
 * PAYMENT_FAILURE_REDIRECT_MS. `retry` starts over (and stops a pending redirect).
 */
export function usePaymentValidation(from: PaymentReturn) {
  const navigate = useNavigate();
  const [attempt, setAttempt] = useState(0);
  // The server render already shows what needs no call.
  const [validation, setValidation] = useState<Validation>(() => firstOf(from));
  const sessionId = from.kind === "session" ? from.sessionId : null;
  const { kind } = from;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the signal to start over
  useEffect(() => {
    // Cleared on unmount and on a new attempt: a late answer or timer changes nothing.
    let over = false;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const later = (ms: number, run: () => void) => {
      timers.add(setTimeout(run, ms));
    };
    const stopTimers = () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    };
    const settle = (next: Validation) => {
      if (over) return;
      over = true;
      stopTimers();
      setValidation(next);
      if (next.state === "error") {
        const query = new URLSearchParams({ error: next.message });
        later(PAYMENT_FAILURE_REDIRECT_MS, () => void navigate(`${PAYMENT_CANCEL_PATH}?${query}`));
      }
    };

    if (!sessionId) settle(firstOf(kind === "portal" ? { kind } : { kind: "missing" }));
    else {
      setValidation({ state: "verifying" });
      later(PAYMENT_POLL_TIMEOUT_MS, () => settle({ state: "error", message: PAYMENT_MESSAGES.timedOut }));
      const poll = async () => {
        const api = await billingApi.load().catch(() => undefined);
        if (over) return;
        const answer = await api?.validateSession(sessionId);
        if (over) return;
        if (answer && (answer.isValid || answer.alreadyProcessed)) {
          settle({ state: "confirmed", session: answer.session });
        } else {
          later(PAYMENT_POLL_INTERVAL_MS, () => void poll());
        }
      };
      void poll();
    }
    return () => {
      over = true;
      stopTimers();
    };
  }, [kind, sessionId, attempt, navigate]);

  return { validation, retry: () => setAttempt((n) => n + 1) };
}
