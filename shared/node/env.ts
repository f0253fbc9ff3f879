/**
 * Environment rules shared by the gateway and the backend: the zod pieces both configs are built
 * from (each rule written once), one parse at start with one error naming every bad variable, and
 * the guard that keeps the Firebase emulator out of production unless local mode is asked for.
 * Production mode and local mode are separate settings: docs/decisions/005-production-mode-and-local-mode.md.
 */
import { z } from "zod";
import { EVENT_STREAMS_PER_SESSION_DEFAULT, SESSION_SECRET_MIN_BYTES } from "../constants.ts";

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The Firebase project of `npm start` and the tests; demo- projects exist only in the emulator. */
export const DEMO_PROJECT_ID = "demo-argus";
const DEMO_PROJECT_PREFIX = "demo-";

export const nodeEnvSchema = z.enum(["development", "production", "test"]).default("development");
export type NodeEnv = z.infer<typeof nodeEnvSchema>;

export const logLevelSchema = z
  .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
  .default("info");
export type LogLevel = z.infer<typeof logLevelSchema>;

/** "true" or "false", nothing else: a typo in a safety switch must stop the process, not read as off. */
export const booleanFlagSchema = z
  .enum(["true", "false"], { error: 'must be "true" or "false"' })
  .default("false")
  .transform((value) => value === "true");

/** LOCAL_MODE: local stand-ins for outside services (the Firebase Auth emulator) are allowed. */
export const localModeSchema = booleanFlagSchema;

export const portSchema = (fallback: number) =>
  z.coerce
    .number({ error: "must be a port number" })
    .int("must be a port number")
    .min(0, "must be a port number")
    .max(65535, "must be a port number")
    .default(fallback);

/** A count of something (sockets, open streams): a whole number above 0. */
export const positiveCountSchema = (fallback: number) =>
  z.coerce
    .number({ error: "must be a whole number above 0" })
    .int("must be a whole number above 0")
    .positive("must be a whole number above 0")
    .default(fallback);

/** EVENT_STREAMS_PER_SESSION: read by both services, each refusing the stream beyond it. */
export const eventStreamsPerSessionSchema = positiveCountSchema(EVENT_STREAMS_PER_SESSION_DEFAULT);

export const sessionSecretSchema = z
  .string()
  .refine(
    (value) => Buffer.byteLength(value, "utf8") >= SESSION_SECRET_MIN_BYTES,
    `must be at least ${SESSION_SECRET_MIN_BYTES} bytes long`,
  )
  .optional();

export const emulatorHostSchema = z
  .string()
  .regex(/^[\w.-]+:\d{1,5}$/, "must be host:port, e.g. 127.0.0.1:9099")
  .optional();

export const firebaseProjectIdSchema = z
  .string()
  .regex(/^[a-z0-9-]{4,40}$/, "must be a Firebase project id (lower-case letters, digits, dashes)")
  .default(DEMO_PROJECT_ID);

/** True for a bare origin (scheme, host, port): no path, query, fragment or credentials. */
function isOrigin(value: string): boolean {
  const url = URL.parse(value);
  return url !== null && `${url.origin}/` === url.href;
}

/** PUBLIC_ORIGIN: the origin browsers reach the gateway at (the gateway's and the backend's rule). */
export const publicOriginSchema = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// origin", abort: true })
  .refine(isOrigin, "must be an origin only, e.g. https://argus.example.com (no path, query or credentials)")
  .optional();

/**
 * Production cannot guess the address browsers use (a proxy, TLS and a name sit in front), so
 * PUBLIC_ORIGIN is required there, and https unless ALLOW_HTTP_ORIGIN=true.
 */
export function checkPublicOrigin(
  env: { NODE_ENV: NodeEnv; PUBLIC_ORIGIN?: string | undefined; ALLOW_HTTP_ORIGIN: boolean },
  ctx: z.RefinementCtx,
): void {
  if (env.NODE_ENV !== "production") return;
  if (!env.PUBLIC_ORIGIN) {
    ctx.addIssue({
      code: "custom",
      path: ["PUBLIC_ORIGIN"],
      message: "is required in production: the origin browsers use, e.g. https://argus.example.com",
    });
  } else if (URL.parse(env.PUBLIC_ORIGIN)?.protocol === "http:" && !env.ALLOW_HTTP_ORIGIN) {
    ctx.addIssue({
      code: "custom",
      path: ["PUBLIC_ORIGIN"],
      message: "must be https:// in production (ALLOW_HTTP_ORIGIN=true allows http://)",
    });
  }
}

export function isDemoProject(projectId: string): boolean {
  return projectId.startsWith(DEMO_PROJECT_PREFIX);
}

/** Any of these set means some Firebase SDK talks to an emulator that accepts unsigned tokens. */
const EMULATOR_VARIABLE = /^(FIREBASE_EMULATOR_HUB|[A-Z_]*_EMULATOR_HOST)$/;

export function firebaseEmulatorVariables(source: NodeJS.ProcessEnv): string[] {
  return Object.keys(source)
    .filter((name) => EMULATOR_VARIABLE.test(name) && source[name])
    .sort();
}

/**
 * Parses `source` with `schema`. An empty variable (`DATABASE_URL=` in a .env file) counts as unset,
 * except those in `keepEmpty`, where empty is a mistake worth reporting (a secret set to nothing).
 * In production, emulator variables are refused unless LOCAL_MODE=true.
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  source: NodeJS.ProcessEnv,
  service: string,
  options: { keepEmpty?: readonly string[] } = {},
): z.infer<S> {
  const present = Object.fromEntries(
    Object.entries(source).filter(([name, value]) => value !== "" || options.keepEmpty?.includes(name)),
  );
  const problems: string[] = [];
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push(`${issue.path.join(".") || "environment"}: ${issue.message}`);
  }
  const production = nodeEnvSchema.safeParse(present.NODE_ENV).data === "production";
  const localMode = localModeSchema.safeParse(present.LOCAL_MODE).data === true;
  if (production && !localMode) {
    for (const name of firebaseEmulatorVariables(source)) {
      problems.push(
        `${name}: must not be set in production unless LOCAL_MODE=true (the emulator accepts unsigned ID tokens)`,
      );
    }
  }
  if (problems.length > 0 || !parsed.success) {
    throw new ConfigError(
      `Invalid ${service} configuration:\n${problems.map((line) => `  - ${line}`).join("\n")}`,
    );
  }
  return parsed.data;
}

/**
 * How a process runs, for its start-up line: the mode, and loudly whether local mode is on, so a
 * local stand-in can never go unnoticed in a log.
 */
export function runtimeSummary(runtime: {
  nodeEnv: NodeEnv;
  localMode: boolean;
  emulatorHost: string | undefined;
}): string {
  const emulator = runtime.emulatorHost ? `Firebase Auth emulator at ${runtime.emulatorHost}` : undefined;
  if (runtime.localMode) {
    return `${runtime.nodeEnv} mode; local mode: ${emulator ?? "local services allowed"} — not for production`;
  }
  return emulator ? `${runtime.nodeEnv} mode; ${emulator}` : `${runtime.nodeEnv} mode`;
}
