/**
 * Backend configuration: the environment, validated once at start-up. Every problem is reported
 * together, one line per variable, so an operator fixes them in one go.
 */
import path from "node:path";
import { z } from "zod";
import { SESSION_COOKIE_MAX_AGE_SECONDS } from "../shared/constants.ts";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../shared/contract.ts";
import { ConfigError, parseEnv } from "../shared/env.ts";

/** DATA_DIR value that keeps the embedded database in memory (tests, throw-away demos). */
export const IN_MEMORY_DATA_DIR = "memory://";

export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dataDir: string | undefined };

export interface BackendConfig {
  nodeEnv: string;
  logLevel: z.infer<typeof logLevelSchema>;
  host: string;
  port: number;
  /** Postgres when DATABASE_URL is set, else embedded PGlite (`dataDir` undefined = in memory). */
  database: DatabaseTarget;
  firebase: { projectId: string; authEmulatorHost: string | undefined };
  session: {
    /** Set: tokens are HS256 with this secret. Unset: ES256 with a key pair kept in the database. */
    secret: string | undefined;
    issuer: string;
    audience: string;
    ttlSeconds: number;
  };
}

const logLevelSchema = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

const envSchema = z
  .object({
    NODE_ENV: z.string().default("development"),
    LOG_LEVEL: logLevelSchema.default("info"),
    BACKEND_HOST: z.string().default("127.0.0.1"),
    BACKEND_PORT: z.coerce
      .number({ error: "must be a port number" })
      .int("must be a port number")
      .min(0, "must be a port number")
      .max(65535, "must be a port number")
      .default(3001),
    DATABASE_URL: z
      .url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" })
      .optional(),
    DATA_DIR: z.string().default("./.data"),
    FIREBASE_PROJECT_ID: z
      .string()
      .regex(/^[a-z0-9-]{4,40}$/, "must be a Firebase project id (lower-case letters, digits, dashes)")
      .default("demo-argus"),
    FIREBASE_AUTH_EMULATOR_HOST: z
      .string()
      .regex(/^[\w.-]+:\d{1,5}$/, "must be host:port, e.g. 127.0.0.1:9099")
      .optional(),
    SESSION_SECRET: z
      .string()
      .refine((value) => Buffer.byteLength(value, "utf8") >= 32, "must be at least 32 bytes long")
      .optional(),
    SESSION_ISSUER: z.string().default(SESSION_ISSUER_DEFAULT),
    SESSION_AUDIENCE: z.string().default(SESSION_AUDIENCE_DEFAULT),
    SESSION_TTL_SECONDS: z.coerce
      .number({ error: "must be a whole number of seconds" })
      .int("must be a whole number of seconds")
      .positive("must be a whole number of seconds")
      .default(SESSION_COOKIE_MAX_AGE_SECONDS),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== "production") return;
    if (env.FIREBASE_PROJECT_ID.startsWith("demo-")) {
      ctx.addIssue({
        code: "custom",
        path: ["FIREBASE_PROJECT_ID"],
        message: "a demo- project only works with the emulator; set your Firebase project id in production",
      });
    }
  });

export { ConfigError };

/** Reads and validates the environment; throws a ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): BackendConfig {
  const e = parseEnv(envSchema, env, "backend", { keepEmpty: ["SESSION_SECRET"] });
  return {
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    host: e.BACKEND_HOST,
    port: e.BACKEND_PORT,
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL }
      : {
          kind: "pglite",
          dataDir: e.DATA_DIR === IN_MEMORY_DATA_DIR ? undefined : path.resolve(e.DATA_DIR, "pglite"),
        },
    firebase: { projectId: e.FIREBASE_PROJECT_ID, authEmulatorHost: e.FIREBASE_AUTH_EMULATOR_HOST },
    session: {
      secret: e.SESSION_SECRET,
      issuer: e.SESSION_ISSUER,
      audience: e.SESSION_AUDIENCE,
      ttlSeconds: e.SESSION_TTL_SECONDS,
    },
  };
}
