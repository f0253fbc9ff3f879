/**
 * Environment parsing shared by the gateway and the backend: one zod pass at start, one error that
 * names every bad variable, and the production guard against Firebase emulator variables.
 */
import type { z } from "zod";

export class ConfigError extends Error {
  override name = "ConfigError";
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
  if (source.NODE_ENV === "production") {
    for (const name of firebaseEmulatorVariables(source)) {
      problems.push(`${name}: must not be set in production (the emulator accepts unsigned ID tokens)`);
    }
  }
  if (problems.length > 0 || !parsed.success) {
    throw new ConfigError(
      `Invalid ${service} configuration:\n${problems.map((line) => `  - ${line}`).join("\n")}`,
    );
  }
  return parsed.data;
}
