/**
 * The wording of billing, payment and contributor screens and of the backend's billing answers
 * (docs/product.md#payment-messages, #contributor-messages, #subscription-errors). Only the billing
 * pages load it; seat refusals are in shared/contract/contributors.ts.
 */
export const PAYMENT_MESSAGES = {
  timedOut: "Payment verification timed out. Please contact support.",
  missingSessionId: "No payment session ID found. Invalid payment URL.",
  unableToVerify: "Unable to verify session",
  pending: "Payment verification pending",
  cancelled: "Payment was cancelled or not completed",
} as const;

export const SUBSCRIPTION_MESSAGES = {
  fetchFailed: "Failed to fetch subscription",
  requestFailed: "Subscription request failed",
  loadFailed: "Failed to load subscription",
  checkoutFailed: "Failed to create checkout session",
  checkoutError: "Error creating checkout session",
  redirectingToCheckout: "Redirecting to secure checkout...",
  invalidSubscriptionId: "Missing or invalid subscription id",
  portalFailed: "Failed to open billing portal",
  seatUpdateError: "Error updating seats",
  redirectingToConfirmation: "Redirecting to billing confirmation...",
  cancellationScheduled: "Subscription cancellation scheduled for period end",
  cancelFailed: "Failed to cancel subscription",
  resumed: "Subscription resumed",
  resumeFailed: "Failed to resume subscription",
  openingPortal: "Opening billing portal...",
  portalCreateError: "Error creating payment portal",
  portalOpenError: "Error opening payment portal",
} as const;
