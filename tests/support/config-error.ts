/** The message of the ConfigError a config loader throws for `env`; fails the test if it does not throw. */
import { expect } from "vitest";
import { ConfigError } from "../../shared/node/env.ts";

export function configErrorOf(
  loadConfig: (env: NodeJS.ProcessEnv) => unknown,
  env: NodeJS.ProcessEnv,
): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected loadConfig to throw");
}
