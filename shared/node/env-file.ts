/**
 * The optional `.env` file (see .env.example), read by the gateway, the backend and `npm start`
 * before they parse their configuration. A variable already in the environment wins over the file:
 * process.loadEnvFile never overwrites one that is set, even to an empty value.
 */
import path from "node:path";
import { ConfigError } from "./env.ts";

/** `.env` at the repository root, whatever the working directory. */
const DEFAULT_ENV_FILE = path.resolve(import.meta.dirname, "..", "..", ".env");

/** Reads ENV_FILE, or the repository's `.env` if there is one. A missing ENV_FILE is an error. */
export function loadEnvFile(): void {
  const chosen = process.env.ENV_FILE;
  const file = chosen ? path.resolve(chosen) : DEFAULT_ENV_FILE;
  try {
    process.loadEnvFile(file);
  } catch (error) {
    if (!chosen && (error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new ConfigError(`ENV_FILE: cannot read ${file}: ${(error as Error).message}`);
  }
}
