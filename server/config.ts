/**
 * Gateway configuration: read from the environment once, at start, and validated with zod so that a
 * bad variable stops the process with a message naming it, instead of failing on first use.
 */
import { z } from "zod";
import { DEFAULT_PRODUCT_NAME } from "../shared/constants.ts";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../shared/contract/accounts.ts";
import {
  booleanFlagSchema,
  ConfigError,
  checkPublicOrigin,
  emulatorHostSchema,
  eventStreamsPerSessionSchema,
  firebaseProjectIdSchema,
  localModeSchema,
  logLevelSchema,
  nodeEnvSchema,
  parseEnv,
  portSchema,
  positiveCountSchema,
  publicOriginSchema,
  sessionSecretSchema,
} from "../shared/node/env.ts";
import { httpUrl } from "../shared/node/http-server.ts";

const envSchema = z
  .object({
    NODE_ENV: nodeEnvSchema,
    LOCAL_MODE: localModeSchema,
    HOST: z.string().min(1).default("127.0.0.1"),
    PORT: portSchema(3000),
    PUBLIC_ORIGIN: publicOriginSchema,
    ALLOW_HTTP_ORIGIN: booleanFlagSchema,
    PRODUCT_NAME: z.string().trim().min(1).default(DEFAULT_PRODUCT_NAME),
    BACKEND_URL: z.url({ protocol: /^https?$/ }).default("http://127.0.0.1:3001"),
    SESSION_SECRET: sessionSecretSchema,
    SESSION_JWKS_URL: z.url({ protocol: /^https?$/ }).optional(),
    SESSION_ISSUER: z.string().min(1).default(SESSION_ISSUER_DEFAULT),
    SESSION_AUDIENCE: z.string().min(1).default(SESSION_AUDIENCE_DEFAULT),
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    PROXY_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
    PROXY_SOCKET_WAIT_MS: z.coerce.number().int().positive().default(5000),
    PROXY_SOCKETS: positiveCountSchema(256),
    PROXY_STREAM_SOCKETS: positiveCountSchema(512),
    EVENT_STREAMS_PER_SESSION: eventStreamsPerSessionSchema,
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
    SESSION_STATUS_CACHE_SECONDS: z.coerce.number().int().min(0).max(30).default(0),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    BUILD_DIR: z.string().min(1).default("build"),
    LOG_LEVEL: logLevelSchema,
    FIREBASE_API_KEY: z.string().min(1).optional(),
    FIREBASE_AUTH_DOMAIN: z.string().min(1).optional(),
    FIREBASE_PROJECT_ID: firebaseProjectIdSchema,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHostSchema,
  })
  .superRefine((env, ctx) => {
    checkPublicOrigin(env, ctx);
    if (!env.FIREBASE_AUTH_EMULATOR_HOST && !env.FIREBASE_API_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["FIREBASE_API_KEY"],
        message: "is required unless FIREBASE_AUTH_EMULATOR_HOST points at the emulator",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface GatewayConfig {
  env: Env["NODE_ENV"];
  /** LOCAL_MODE: local stand-ins (the Firebase Auth emulator) are allowed even in production. */
  localMode: boolean;
  host: string;
  port: number;
  /** The origin browsers reach the gateway at, serialised without a trailing slash. */
  publicOrigin: string;
  /** ALLOW_HTTP_ORIGIN: production accepts an http:// publicOrigin (local runs, TLS-less labs). */
  allowHttpOrigin: boolean;
  productName: string;
  backendUrl: string;
  session: {
    /** HS256 with a shared secret, or ES256 against the backend's JWKS. */
    keys: { kind: "secret"; secret: Uint8Array } | { kind: "jwks"; url: URL };
    issuer: string;
    audience: string;
  };
  trustProxyHops: number;
  /** How long the backend may leave a proxied call without a byte (504 after). */
  proxyTimeoutMs: number;
  /** How long a proxied call may wait for a free socket to the backend (504 after). */
  proxySocketWaitMs: number;
  /**
   * Sockets to the backend: `calls` for every proxied request but the event streams, which hold
   * theirs as long as the page stays open and so have a pool of their own, `streams`
   * (docs/decisions/032-event-stream-limits.md).
   */
  proxySockets: { calls: number; streams: number };
  /** Event streams one session may hold open through this gateway (429 beyond). */
  eventStreamsPerSession: number;
  bodyLimitBytes: number;
  authRateLimitPerMinute: number;
  /**
   * How long the backend's word that a session is live is kept. 0 (the default): asked for every
   * page and gateway /auth request (the backend checks /api calls itself, docs/decisions/044), so a
   * session ended through any gateway or backend is refused at once by this one
   * (docs/decisions/042-scale-out.md); up to 30 trades that for fewer calls.
   */
  sessionStatusCacheSeconds: number;
  shutdownTimeoutMs: number;
  buildDir: string;
  logLevel: Env["LOG_LEVEL"];
  firebase: {
    apiKey: string;
    authDomain: string;
    projectId: string;
    emulatorUrl?: string;
  };
}

export { ConfigError };

/** Parses the environment; throws a ConfigError listing every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const env = parseEnv(envSchema, source, "gateway", { keepEmpty: ["SESSION_SECRET"] });
  const emulatorUrl = env.FIREBASE_AUTH_EMULATOR_HOST
    ? `http://${env.FIREBASE_AUTH_EMULATOR_HOST}`
    : undefined;
  return {
    env: env.NODE_ENV,
    localMode: env.LOCAL_MODE,
    host: env.HOST,
    port: env.PORT,
    publicOrigin: new URL(env.PUBLIC_ORIGIN ?? httpUrl(env.HOST, env.PORT)).origin,
    allowHttpOrigin: env.ALLOW_HTTP_ORIGIN,
    productName: env.PRODUCT_NAME,
    backendUrl: env.BACKEND_URL.replace(/\/+$/, ""),
    session: {
      keys: env.SESSION_SECRET
        ? { kind: "secret", secret: new TextEncoder().encode(env.SESSION_SECRET) }
        : {
            kind: "jwks",
            url: new URL(
              env.SESSION_JWKS_URL ?? `${env.BACKEND_URL.replace(/\/+$/, "")}/.well-known/jwks.json`,
            ),
          },
      issuer: env.SESSION_ISSUER,
      audience: env.SESSION_AUDIENCE,
    },
    trustProxyHops: env.TRUST_PROXY,
    proxyTimeoutMs: env.PROXY_TIMEOUT_MS,
    proxySocketWaitMs: env.PROXY_SOCKET_WAIT_MS,
    proxySockets: { calls: env.PROXY_SOCKETS, streams: env.PROXY_STREAM_SOCKETS },
    eventStreamsPerSession: env.EVENT_STREAMS_PER_SESSION,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    sessionStatusCacheSeconds: env.SESSION_STATUS_CACHE_SECONDS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    buildDir: env.BUILD_DIR,
    logLevel: env.LOG_LEVEL,
    firebase: {
      // The emulator accepts any API key; a real project needs its own.
      apiKey: env.FIREBASE_API_KEY ?? "demo-api-key",
      authDomain: env.FIREBASE_AUTH_DOMAIN ?? `${env.FIREBASE_PROJECT_ID}.firebaseapp.com`,
      projectId: env.FIREBASE_PROJECT_ID,
      emulatorUrl,
    },
  };
}
