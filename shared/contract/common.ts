/**
 * What every area of the HTTP contract shares (docs/product.md#api): the error body and its codes,
 * the one table of API paths the gateway proxies and the backend serves, and the valibot schemas of
 * the error and message bodies, in one module; a page that does not use the schemas tree-shakes them
 * away. Each other area (its paths' schemas and messages) is a module of its own beside this one.
 */
import * as v from "valibot";
import { REVIEW_EVENTS_PATH } from "./reviews.ts";
import { schema } from "./schema.ts";

/**
 * Machine-readable `code`s of error bodies. The browser branches on these, never on message text,
 * so each is written here once and used by the gateway, the backend, the client and the test fakes.
 */
export const ERROR_CODES = {
  /** Sign-in with a password account whose address is not yet verified (403). */
  emailNotVerified: "EMAIL_NOT_VERIFIED",
  /** The identity is disabled at the identity provider (403). */
  userDisabled: "USER_DISABLED",
  /** Another identity already owns this e-mail address (409). */
  emailInUse: "EMAIL_IN_USE",
  /** The request does not match the call's schema (400). */
  invalidRequest: "INVALID_REQUEST",
  /** The gateway refused a state-changing request from another site (403). */
  csrf: "CSRF",
  /** Too many /auth calls from one client (429). */
  rateLimited: "RATE_LIMITED",
  /** The request body is larger than the gateway accepts (413). */
  payloadTooLarge: "PAYLOAD_TOO_LARGE",
  /** The request body's Content-Encoding is not one the gateway reads (415). */
  unsupportedEncoding: "UNSUPPORTED_ENCODING",
  /** A path with dot segments or encoded slashes, refused before proxying (400). */
  invalidPath: "INVALID_PATH",
  /** The backend could not be reached (502). */
  upstreamUnavailable: "UPSTREAM_UNAVAILABLE",
  /** The backend did not answer in time (504). */
  upstreamTimeout: "UPSTREAM_TIMEOUT",
  /** The backend answered a sign-in with a token that does not verify (502). */
  upstreamInvalidSession: "UPSTREAM_INVALID_SESSION",
  /** The session could not be checked right now (keys or backend unreachable); retry (503). */
  sessionCheckUnavailable: "SESSION_CHECK_UNAVAILABLE",
  /** The identity provider (Firebase Auth) could not be reached; retry (503). */
  identityUnavailable: "IDENTITY_UNAVAILABLE",
  /** The session or the organisation holds as many event streams as it may; retry after Retry-After (429). */
  tooManyStreams: "TOO_MANY_STREAMS",
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Paths, written once. */
export const API_PATHS = {
  login: "/auth/login",
  resendVerification: "/auth/resend-verification",
  refresh: "/auth/refresh",
  logout: "/auth/logout",
  /**
   * Answered by the gateway itself. GET: who is signed in. POST: renew the session now (a new token
   * with the current names, after an edit), through the backend's refresh.
   */
  session: "/auth/session",
  signup: "/auth/signup",
  githubSignup: "/auth/github-signup",
  /** POST /auth/login/{provider} with an OAuth code. */
  providerLogin: (provider: string) => `/auth/login/${encodeURIComponent(provider)}`,
  forgotPassword: "/auth/forgot-password",
  resetPassword: "/auth/reset-password",
  resetPasswordCheck: "/auth/reset-password/check",
  outbox: "/auth/outbox",
  userUpdate: "/api/user/update",
  orgUpdate: "/api/org/update",
  /**
   * Backend only, never proxied: a gateway counts a hit on its /auth rate limit here, so that every
   * gateway counts the same hits (docs/decisions/042-scale-out.md).
   */
  authRateLimitHit: "/internal/auth-rate-limit",
  /** Backend: 204 while the bearer's session is live, 401 once revoked or expired. */
  sessionStatus: "/auth/session-status",
  projects: "/api/projects",
  integrations: "/api/integrations",
  integration: (name: string) => `/api/integrations/${encodeURIComponent(name)}`,
  integrationSetup: (name: string) => `/api/integrations/${encodeURIComponent(name)}/setup`,
  /** Answers /installation: the GitHub App installation (or the sandbox's) of `{org_id, installationId}`. */
  githubSetup: "/api/integrations/github/setup",
  /** GitHub's webhook deliveries: public, authenticated by their X-Hub-Signature-256. */
  githubWebhook: "/webhooks/github",
  /**
   * An Azure DevOps integration's service hook: public, authenticated by Basic auth whose password
   * is that integration's hook secret (docs/decisions/028-azure-devops-tenancy.md).
   */
  azureDevOpsWebhook: (hookId: string) => `/webhooks/azure-devops/${encodeURIComponent(hookId)}`,
  /** POST: a new service-hook secret for the caller's Azure DevOps integration (the old one stops working). */
  azureDevOpsHookSecret: "/api/integrations/azure-devops/hook-secret",
  jwks: "/.well-known/jwks.json",
  /** GET: the setting templates (`?includeInactive=false`). */
  settingsTemplates: "/api/settings/templates",
  /** GET: the values of an organisation, or of a repository with `?repositoryId`. */
  settings: "/api/settings",
  /** PUT: save one category's values. */
  settingsCategory: (category: string) => `/api/settings/${encodeURIComponent(category)}`,
  /** GET, PUT, DELETE: the organisation's AI model (shared/contract/ai-model.ts). */
  aiModel: "/api/ai-model",
  /** POST: try a model's settings (the stored API key unless the body names one). */
  aiModelTest: "/api/ai-model/test",
  subscription: "/api/subscription",
  subscriptionCredit: "/api/subscription/credit",
  checkoutSession: "/api/subscription/stripe/create-checkout-session",
  updateSubscription: "/api/subscription/stripe/update-subscription",
  cancelSubscription: "/api/subscription/stripe/cancel-subscription",
  resumeSubscription: "/api/subscription/stripe/resume-subscription",
  customerPortal: "/api/subscription/stripe/customer-portal",
  /** Public (PUBLIC_API_PATTERN). */
  validateSession: (sessionId: string) =>
    `/api/subscription/stripe/validate-session/${encodeURIComponent(sessionId)}`,
  /** Sandbox billing only (404 with Stripe): one open payment session, and its two outcomes. */
  sandboxCheckout: (sessionId: string) =>
    `/api/subscription/sandbox/sessions/${encodeURIComponent(sessionId)}`,
  sandboxCheckoutComplete: (sessionId: string) =>
    `/api/subscription/sandbox/sessions/${encodeURIComponent(sessionId)}/complete`,
  sandboxCheckoutCancel: (sessionId: string) =>
    `/api/subscription/sandbox/sessions/${encodeURIComponent(sessionId)}/cancel`,
  /** Sandbox billing only (404 with Stripe): the local stand-in for Stripe's customer portal. */
  sandboxPortal: "/api/subscription/sandbox/portal",
  /** Stripe's webhook deliveries: public, authenticated by their Stripe-Signature. */
  stripeWebhook: "/webhooks/stripe",
  /** GET: review runs of the organisation, newest first (`?projectId` narrows to one repository). */
  reviews: "/api/reviews",
  /** GET: one run with its decision log and findings. */
  reviewRun: (runId: string) => `/api/reviews/${encodeURIComponent(runId)}`,
  /** POST: review the run's pull request again (a new run). */
  reviewRunRetry: (runId: string) => `/api/reviews/${encodeURIComponent(runId)}/retry`,
  reviewEvents: REVIEW_EVENTS_PATH,
  contributors: "/api/contributors",
  addContributor: "/api/contributors/add",
  /** GET: the usernames the code host can list for Add Contributor (the sandbox's people). */
  contributorSuggestions: "/api/contributors/suggestions",
  assignSeat: "/api/seats/assign",
  unassignSeat: "/api/seats/unassign",
  seatStatus: "/api/seats/status",
} as const;

/** The one /api call that needs no session (docs/product.md#calls). */
export const PUBLIC_API_PATTERN = /^\/api\/subscription\/stripe\/validate-session\/[^/]+$/;

/**
 * The API's Server-Sent Event streams: answers that stay open as long as the page does. The gateway
 * proxies them over sockets of their own and caps them per session (docs/decisions/032-event-stream-limits.md).
 */
export const EVENT_STREAM_PATHS: readonly string[] = [API_PATHS.reviewEvents];

/** Upstream sign-in calls whose answer carries a token the gateway turns into the cookie. */
export const TOKEN_BEARING_AUTH_PATHS = [
  /^\/auth\/login$/,
  /^\/auth\/login\/[^/]+$/,
  /^\/auth\/signup$/,
  /^\/auth\/github-signup$/,
] as const;

/** Every error body, from the gateway and from the backend, has this shape. */
export const errorBodySchema = schema(() =>
  v.object({
    error: v.string(),
    code: v.optional(v.string()),
    message: v.optional(v.string()),
  }),
);

export type ErrorBody = v.InferOutput<typeof errorBodySchema>;

export const messageResponseSchema = schema(() => v.object({ message: v.string() }));

export const successResponseSchema = schema(() =>
  v.object({
    success: v.literal(true),
    message: v.optional(v.string()),
  }),
);
