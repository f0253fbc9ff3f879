/**
 * Gateway configuration: read from the environment once, at start, and validated with zod so that a
 * bad variable stops the process with a message naming it, instead of failing on first use.
 */
import { z } from "zod";
import { DEFAULT_PRODUCT_NAME } from "../shared/constants.ts";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../shared/contract.ts";
import { ConfigError, parseEnv } from "../shared/env.ts";

const MIN_SECRET_BYTES = 32;

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().min(1).default("127.0.0.1"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PRODUCT_NAME: z.string().trim().min(1).default(DEFAULT_PRODUCT_NAME),
    PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
    BACKEND_URL: z.url({ protocol: /^https?$/ }).default("http://127.0.0.1:3001"),
    SESSION_SECRET: z
      .string()
      .refine((value) => Buffer.byteLength(value) >= MIN_SECRET_BYTES, {
        message: `must be at least ${MIN_SECRET_BYTES} bytes`,
      })
      .optional(),
    SESSION_JWKS_URL: z.url({ protocol: /^https?$/ }).optional(),
    SESSION_ISSUER: z.string().min(1).default(SESSION_ISSUER_DEFAULT),
    SESSION_AUDIENCE: z.string().min(1).default(SESSION_AUDIENCE_DEFAULT),
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    PROXY_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    BUILD_DIR: z.string().min(1).default("build"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    FIREBASE_API_KEY: z.string().min(1).optional(),
    FIREBASE_AUTH_DOMAIN: z.string().min(1).optional(),
    FIREBASE_PROJECT_ID: z.string().min(1).default("demo-argus"),
    FIREBASE_AUTH_EMULATOR_HOST: z
      .string()
      .regex(/^[\w.-]+:\d+$/, "must be host:port, e.g. 127.0.0.1:9099")
      .optional(),
  })
  .superRefine((env, ctx) => {
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
  host: string;
  port: number;
  productName: string;
  /** The origin browsers reach the gateway at, e.g. "https://argus.example.com". */
  publicOrigin: string;
  backendUrl: string;
  session: {
    /** HS256 with a shared secret, or ES256 against the backend's JWKS. */
    keys: { kind: "secret"; secret: Uint8Array } | { kind: "jwks"; url: URL };
    issuer: string;
    audience: string;
  };
  trustProxyHops: number;
  proxyTimeoutMs: number;
  bodyLimitBytes: number;
  authRateLimitPerMinute: number;
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
    host: env.HOST,
    port: env.PORT,
    productName: env.PRODUCT_NAME,
    publicOrigin: new URL(env.PUBLIC_ORIGIN ?? `http://${env.HOST}:${env.PORT}`).origin,
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
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
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
