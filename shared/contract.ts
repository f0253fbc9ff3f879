/**
 * The HTTP contract between browser, gateway and backend (spec section 7), as zod schemas.
 * The backend validates what it receives with these, the gateway and the client parse what they
 * get back with them, so a change of shape is one edit here.
 */
import { z } from "zod";

/** Every error body, from the gateway and from the backend, has this shape. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

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
 * POST /auth/login. The spec's login payload, except the password: Firebase has already checked
 * it, and the ID token proves that (docs/decisions/003-login-with-id-token.md).
 */
export const loginRequestSchema = z.object({
  email: z.string().email(),
  firebase_uid: z.string().min(1),
  name: z.string().optional(),
  avatar_url: z.string().optional(),
  idToken: z.string().min(1),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** What the backend answers to a sign-in; the gateway removes `token` before the browser sees it. */
export const signInResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  org: orgSchema,
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;
export type BrowserSignInResponse = Omit<SignInResponse, "token">;

/** POST /auth/refresh, bearer = the current session token. */
export const refreshResponseSchema = z.object({ token: z.string() });

/** Claims of the session JWT the backend signs (ARCHITECTURE.md, Session and security). */
export const sessionClaimsSchema = z.object({
  sub: z.string(),
  sid: z.string(),
  orgId: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  provider: providerSchema,
  orgName: z.string(),
  iat: z.number(),
  exp: z.number(),
  /** Seconds since epoch of the sign-in that began this session; refresh never moves it. */
  auth_time: z.number(),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;

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
  }),
});
export type Project = z.infer<typeof projectSchema>;

/** GET /api/projects?integrationType=git&integrationName=github */
export const projectsResponseSchema = z.object({
  success: z.boolean(),
  data: z.object({ projects: z.array(projectSchema) }),
});
export type ProjectsResponse = z.infer<typeof projectsResponseSchema>;

/** Paths, written once. */
export const API_PATHS = {
  login: "/auth/login",
  refresh: "/auth/refresh",
  logout: "/auth/logout",
  session: "/auth/session",
  projects: "/api/projects",
  jwks: "/.well-known/jwks.json",
} as const;

/** The one /api call that needs no session (spec section 7). */
export const PUBLIC_API_PATTERN = /^\/api\/subscription\/stripe\/validate-session\/[^/]+$/;

/** Upstream sign-in calls whose answer carries a token the gateway turns into the cookie. */
export const TOKEN_BEARING_AUTH_PATHS = [
  /^\/auth\/login$/,
  /^\/auth\/login\/[^/]+$/,
  /^\/auth\/signup$/,
  /^\/auth\/github-signup$/,
] as const;

export const SESSION_ISSUER_DEFAULT = "argus-backend";
export const SESSION_AUDIENCE_DEFAULT = "argus-gateway";
