/**
 * Backend configuration: the environment, validated once at start-up. Every problem is reported
 * together, one line per variable, so an operator fixes them in one go.
 */
import path from "node:path";
import { z } from "zod";
import { SESSION_COOKIE_MAX_AGE_SECONDS } from "../shared/constants.ts";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../shared/contract.ts";
import {
  ConfigError,
  emulatorHostSchema,
  firebaseProjectIdSchema,
  isDemoProject,
  type LogLevel,
  localModeSchema,
  logLevelSchema,
  type NodeEnv,
  nodeEnvSchema,
  parseEnv,
  portSchema,
  sessionSecretSchema,
} from "../shared/env.ts";

/** DATA_DIR value that keeps the embedded database in memory (tests, throw-away demos). */
export const IN_MEMORY_DATA_DIR = "memory://";

export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dataDir: string | undefined };

export interface BackendConfig {
  nodeEnv: NodeEnv;
  /** LOCAL_MODE: local stand-ins (the Firebase Auth emulator) are allowed even in production. */
  localMode: boolean;
  logLevel: LogLevel;
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

const envSchema = z
  .object({
    NODE_ENV: nodeEnvSchema,
    LOCAL_MODE: localModeSchema,
    LOG_LEVEL: logLevelSchema,
    BACKEND_HOST: z.string().default("127.0.0.1"),
    BACKEND_PORT: portSchema(3001),
    DATABASE_URL: z
      .url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" })
      .optional(),
    DATA_DIR: z.string().default("./.data"),
    FIREBASE_PROJECT_ID: firebaseProjectIdSchema,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHostSchema,
    SESSION_SECRET: sessionSecretSchema,
    SESSION_ISSUER: z.string().default(SESSION_ISSUER_DEFAULT),
    SESSION_AUDIENCE: z.string().default(SESSION_AUDIENCE_DEFAULT),
    SESSION_TTL_SECONDS: z.coerce
      .number({ error: "must be a whole number of seconds" })
      .int("must be a whole number of seconds")
      .positive("must be a whole number of seconds")
      .default(SESSION_COOKIE_MAX_AGE_SECONDS),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== "production" || !isDemoProject(env.FIREBASE_PROJECT_ID)) return;
    // Local mode may run production code against the emulator, which is where demo- projects live.
    if (env.LOCAL_MODE && env.FIREBASE_AUTH_EMULATOR_HOST) return;
    ctx.addIssue({
      code: "custom",
      path: ["FIREBASE_PROJECT_ID"],
      message: "a demo- project only works with the emulator; set your Firebase project id in production",
    });
  });

export { ConfigError };

/** Reads and validates the environment; throws a ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): BackendConfig {
  const e = parseEnv(envSchema, env, "backend", { keepEmpty: ["SESSION_SECRET"] });
  return {
    nodeEnv: e.NODE_ENV,
    localMode: e.LOCAL_MODE,
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
