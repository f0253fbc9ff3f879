/**
 * The HTTP contract between browser, gateway and backend (docs/product.md#api), as zod schemas.
 * The backend validates what it receives with these, the gateway and the client parse what they
 * get back with them, so a change of shape is one edit here.
 */
import { z } from "zod";
import {
  EDITABLE_NAME_MAX,
  EMAIL_MAX,
  ID_MAX,
  ID_TOKEN_MAX,
  NAME_MAX,
  OAUTH_TOKEN_MAX,
  ONE_TIME_CODE_MAX,
  ORG_NAME_MAX,
  SHORT_TEXT_MAX,
  STRONG_PASSWORD_MAX,
  URL_MAX,
} from "./constants.ts";
import { VALIDATION } from "./messages.ts";
import { PROJECT_SORTS } from "./paging.ts";
import { pageInfoSchema, pageQuerySchema } from "./paging-contract.ts";
import { REVIEW_EVENTS_PATH } from "./review-paths.ts";
import { type Rule, SIGNUP_RULES, strongPassword, validateField } from "./validation.ts";

/**
 * A zod refinement from the form rules of shared/validation.ts, so the backend refuses exactly what
 * the browser's forms refuse, with the same messages. `except`: messages another check gives already.
 */
function checkedBy(rules: readonly Rule[], except: readonly string[] = []) {
  return (value: string, ctx: z.RefinementCtx) => {
    const problem = validateField(value, rules);
    if (problem && !except.includes(problem)) ctx.addIssue({ code: "custom", message: problem });
  };
}

/** Every error body, from the gateway and from the backend, has this shape. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

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

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const orgSchema = z.object({
  org_id: z.string(),
  name: z.string(),
});
export type Org = z.infer<typeof orgSchema>;

export const providerSchema = z.enum(["email", "github"]);
export type Provider = z.infer<typeof providerSchema>;

/**
 * POST /auth/login. The product's login payload (docs/product.md#where-we-differ), except the password: Firebase has already checked
 * it, and the ID token proves that (docs/decisions/003-login-with-id-token.md). Every string is
 * bounded; `name` is only a fallback for an identity without one (the backend prefers the verified
 * identity's name), and an avatar must be an https URL.
 */
export const loginRequestSchema = z.object({
  email: z.email().max(EMAIL_MAX),
  firebase_uid: z.string().min(1).max(ID_MAX),
  name: z.string().max(NAME_MAX).optional(),
  avatar_url: z
    .url({ protocol: /^https$/, normalize: true })
    .max(URL_MAX)
    .optional(),
  idToken: z.string().min(1).max(ID_TOKEN_MAX),
  /** GitHub sign-ins only: lets the backend confirm with GitHub that the address is verified. */
  oauthAccessToken: z.string().min(1).max(OAUTH_TOKEN_MAX).optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** What the backend answers to a sign-in; the gateway removes `token` before the browser sees it. */
export const signInResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  org: orgSchema,
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** The same answer as the browser gets it: the gateway keeps the token (it becomes the cookie). */
export const browserSignInResponseSchema = signInResponseSchema.omit({ token: true });
export type BrowserSignInResponse = z.infer<typeof browserSignInResponseSchema>;

/**
 * POST /auth/signup. The product's signup payload with the Firebase ID token of the account the
 * browser just created in place of the password (docs/decisions/003-login-with-id-token.md). An
 * unverified address creates no account yet: the backend keeps the profile and sends the
 * verification e-mail; the first verified sign-in creates the account from it.
 */
export const signupRequestSchema = z.object({
  name: z.string().max(NAME_MAX).superRefine(checkedBy(SIGNUP_RULES.name)).trim(),
  email: z.email().max(EMAIL_MAX),
  company: z.string().max(ORG_NAME_MAX).superRefine(checkedBy(SIGNUP_RULES.company)).trim(),
  source: z.string().max(SHORT_TEXT_MAX).superRefine(checkedBy(SIGNUP_RULES.source)).trim(),
  type: z.literal("EMAIL"),
  idToken: z.string().min(1).max(ID_TOKEN_MAX),
});
export type SignupRequest = z.infer<typeof signupRequestSchema>;

/**
 * The signup answer. `requiresEmailVerification`: the 'Check Your Email' page follows, and no user
 * or org exists yet. Otherwise the account exists and the answer signs in (its token becomes the
 * cookie, like any sign-in answer).
 */
export const signupResponseSchema = z.object({
  requiresEmailVerification: z.boolean(),
  message: z.string(),
  token: z.string().optional(),
  user: userSchema.optional(),
  org: orgSchema.optional(),
});
export type SignupResponse = z.infer<typeof signupResponseSchema>;
export const browserSignupResponseSchema = signupResponseSchema.omit({ token: true });

/**
 * POST /auth/github-signup: the GitHub identity from the Firebase popup. The ID token proves who
 * it is; the OAuth access token (scopes user:email, read:user) lets the backend ask GitHub which
 * of the user's addresses are verified, since Firebase does not vouch for GitHub addresses.
 */
export const githubSignupRequestSchema = z.object({
  email: z.email().max(EMAIL_MAX),
  displayName: z.string().max(NAME_MAX).nullable().optional(),
  photoURL: z
    .url({ protocol: /^https$/ })
    .max(URL_MAX)
    .nullable()
    .optional(),
  screenName: z.string().max(ID_MAX).nullable().optional(),
  localId: z.string().min(1).max(ID_MAX),
  /** Absent only for the emulator's fake GitHub provider (local mode), which has no tokens. */
  oauthAccessToken: z.string().min(1).max(OAUTH_TOKEN_MAX).optional(),
  scopes: z.array(z.string().max(ID_MAX)).max(20),
  idToken: z.string().min(1).max(ID_TOKEN_MAX),
});
export type GithubSignupRequest = z.infer<typeof githubSignupRequestSchema>;

/** POST /auth/login/{provider}: the code of an OAuth redirect (/oauth/callback/{provider}). */
export const providerLoginRequestSchema = z.object({ code: z.string().min(1).max(ONE_TIME_CODE_MAX) });

/**
 * POST /auth/resend-verification and POST /auth/forgot-password. Both answer the same
 * `{message}` whether or not the address has an account, so they reveal nothing.
 */
export const emailRequestSchema = z.object({ email: z.email().max(EMAIL_MAX) });
export const messageResponseSchema = z.object({ message: z.string() });

/** POST /auth/reset-password: the code from the reset e-mail and the new password (never stored). */
export const resetPasswordRequestSchema = z.object({
  oobCode: z.string().min(1).max(ONE_TIME_CODE_MAX),
  newPassword: z
    .string()
    .max(STRONG_PASSWORD_MAX, VALIDATION.passwordTooLong)
    .superRefine((value, ctx) => {
      const problem = strongPassword(value);
      if (problem && problem !== VALIDATION.passwordTooLong)
        ctx.addIssue({ code: "custom", message: problem });
    }),
});
/** POST /auth/reset-password/check: whether a reset link's code can still be used (400 if not). */
export const resetCodeCheckRequestSchema = resetPasswordRequestSchema.pick({ oobCode: true });
export const successResponseSchema = z.object({ success: z.literal(true), message: z.string().optional() });

/** POST /api/user/update and POST /api/org/update: the name edit dialogs. */
export const nameUpdateRequestSchema = z.object({
  updateData: z.object({ name: z.string().trim().min(1).max(EDITABLE_NAME_MAX) }),
});
export const nameUpdateResponseSchema = z.object({ success: z.boolean(), message: z.string() });

/**
 * GET /auth/outbox, in local mode only (404 otherwise): the e-mails the local outbox holds instead
 * of sending them, newest first, so verification and reset work without an SMTP server.
 */
export const outboxResponseSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      /** The links the e-mail carries (verification, password reset). */
      links: z.array(z.string()),
      sentAt: z.string(),
    }),
  ),
});
export type OutboxResponse = z.infer<typeof outboxResponseSchema>;

/** POST /auth/refresh, bearer = the current session token. */
export const refreshResponseSchema = z.object({ token: z.string() });
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

/**
 * Claims of the session JWT the backend signs (docs/architecture.md#cookie-and-token). Bounded
 * like the requests: a token with a longer claim does not count as a session.
 */
export const sessionClaimsSchema = z.object({
  sub: z.string().max(ID_MAX),
  sid: z.string().max(ID_MAX),
  orgId: z.string().max(ID_MAX),
  email: z.string().max(EMAIL_MAX),
  name: z.string().max(NAME_MAX),
  role: z.string().max(ID_MAX),
  provider: providerSchema,
  orgName: z.string().max(ORG_NAME_MAX),
  iat: z.number(),
  exp: z.number(),
  /** Seconds since epoch of the sign-in that began this session; refresh never moves it. */
  auth_time: z.number(),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;

/**
 * GET /auth/session-status (backend, asked by the gateway): the session is live, and the user's and
 * organisation's names now, so a rename shows in every signed-in browser without a new token.
 */
export const sessionStatusResponseSchema = sessionClaimsSchema.pick({ name: true, orgName: true });
export type SessionNames = z.infer<typeof sessionStatusResponseSchema>;

/** GET /auth/session (answered by the gateway): who is signed in, never the token. */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  provider: providerSchema,
  orgName: z.string(),
  orgId: z.string(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
export const sessionResponseSchema = z.object({ user: sessionUserSchema.nullable() });

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  integration_key: z.string(),
  integration_name: z.string(),
  integration_type: z.string(),
  external_link: z.string(),
  active: z.boolean(),
  webhook_active: z.boolean(),
  properties: z.object({
    full_name: z.string().optional(),
    private: z.boolean().optional(),
    description: z.string().nullable().optional(),
    default_branch: z.string().optional(),
    fork: z.boolean().optional(),
    /** Imported from the sandbox code host (local mode without a GitHub App), not from GitHub. */
    sandbox: z.boolean().optional(),
  }),
});
export type Project = z.infer<typeof projectSchema>;

/**
 * GET /api/projects?integrationType=git&integrationName=github, one page of them
 * (`page`, `pageSize`, `search` in the full name, `sort`: shared/paging.ts).
 */
export const projectsQuerySchema = pageQuerySchema(PROJECT_SORTS).extend({
  integrationType: z.string().min(1).max(ID_MAX).optional(),
  integrationName: z.string().min(1).max(ID_MAX).optional(),
});
export type ProjectsQuery = z.infer<typeof projectsQuerySchema>;
export const projectsResponseSchema = z.object({
  success: z.boolean(),
  data: z.object({ projects: z.array(projectSchema) }),
  page: pageInfoSchema,
});
export type ProjectsResponse = z.infer<typeof projectsResponseSchema>;

/** How an integration's setup form asks for one value (docs/product.md#integrationsname). */
export const integrationFieldSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** The input's type; a `password` field holds a secret, never sent back. */
  type: z.enum(["text", "url", "password"]),
  hint: z.string(),
});
export type IntegrationField = z.infer<typeof integrationFieldSchema>;

/**
 * A stored setup value as answers carry it: the value itself, or for a secret field only whether
 * it is set, so no answer ever holds a secret.
 */
export const integrationPropertySchema = z.union([z.string(), z.object({ set: z.boolean() })]);

/** One integration of the catalogue, as the caller's organisation has it (docs/product.md#entities). */
export const integrationSchema = z.object({
  name: z.string(),
  key: z.string(),
  display_name: z.string(),
  sub_title: z.string(),
  description: z.string(),
  isActive: z.boolean(),
  links: z.object({ icon: z.string(), oauth_url: z.string().optional() }),
  fields: z.array(integrationFieldSchema),
  /** Null until the organisation has set the integration up. */
  activeIntegration: z
    .object({
      integration_key: z.string(),
      is_active: z.boolean(),
      properties: z.record(z.string(), integrationPropertySchema),
      /**
       * Azure DevOps: where its service hook posts; null until a hook secret was generated (an
       * integration set up before hooks had their own), when events are refused. Absent elsewhere.
       */
      serviceHook: z.object({ url: z.string() }).nullable().optional(),
    })
    .nullable(),
});
export type Integration = z.infer<typeof integrationSchema>;

/**
 * An Azure DevOps service hook's URL and its secret (the Basic-auth password), in the one answer
 * that makes the secret: it is stored only as a digest and never shown again.
 */
export const serviceHookSecretSchema = z.object({ url: z.string(), secret: z.string() });
export type ServiceHookSecret = z.infer<typeof serviceHookSecretSchema>;

/** GET /api/integrations */
export const integrationsResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(integrationSchema),
});
export type IntegrationsResponse = z.infer<typeof integrationsResponseSchema>;

/** GET /api/integrations/{name} */
export const integrationResponseSchema = z.object({ success: z.boolean(), data: integrationSchema });
export type IntegrationResponse = z.infer<typeof integrationResponseSchema>;

/** The most fields an integration's setup form has; a longer body is not a setup. */
export const INTEGRATION_FIELDS_MAX = 20;

/**
 * POST /api/integrations/{name}/setup: the form's values keyed by field key. Which keys an
 * integration takes is the backend's catalogue's business; this only bounds the body.
 */
export const integrationSetupRequestSchema = z
  .record(z.string().min(1).max(ID_MAX), z.string().trim().min(1).max(URL_MAX))
  .refine((values) => Object.keys(values).length <= INTEGRATION_FIELDS_MAX, {
    message: `at most ${INTEGRATION_FIELDS_MAX} fields`,
  });
export type IntegrationSetupRequest = z.infer<typeof integrationSetupRequestSchema>;

/**
 * POST /api/integrations/github/setup, from /installation after the app installation. GitHub's
 * `installation_id` is a number; the page reads it from the query, so either form is taken.
 * `code` is the one the code host sent the browser back with: the proof that the user may connect
 * this installation (GitHub's OAuth code of the App, or the sandbox's signed code).
 */
export const githubSetupRequestSchema = z.object({
  code: z.string().trim().min(1).max(ONE_TIME_CODE_MAX),
  org_id: z.string().min(1).max(ID_MAX),
  installationId: z.union([
    z.string().trim().min(1).max(ID_MAX),
    z
      .number()
      .int()
      .positive()
      .transform((id) => String(id)),
  ]),
});
export type GithubSetupRequest = z.infer<typeof githubSetupRequestSchema>;

/** The answer of both setup calls; `serviceHook` when this setup made the hook's secret. */
export const integrationSetupResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  serviceHook: serviceHookSecretSchema.optional(),
});
export type IntegrationSetupResponse = z.infer<typeof integrationSetupResponseSchema>;

/** POST /api/integrations/azure-devops/hook-secret */
export const serviceHookSecretResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  data: serviceHookSecretSchema,
});
export type ServiceHookSecretResponse = z.infer<typeof serviceHookSecretResponseSchema>;

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
  /** GET, PUT, DELETE: the organisation's AI model (shared/ai-model-contract.ts). */
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

export const SESSION_ISSUER_DEFAULT = "argus-backend";
export const SESSION_AUDIENCE_DEFAULT = "argus-gateway";
