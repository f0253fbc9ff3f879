import path from "node:path";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE_MAX_AGE_SECONDS } from "../shared/constants.ts";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../shared/contract.ts";
import { configErrorOf } from "../tests/support/config-error.ts";
import { loadConfig } from "./config.ts";

const SECRET_32 = "0123456789abcdef0123456789abcdef";

const configError = (env: NodeJS.ProcessEnv) => configErrorOf(loadConfig, env);

describe("loadConfig", () => {
  it("runs with no configuration: PGlite under ./.data, the demo project, ES256 keys, 7-day tokens", () => {
    const config = loadConfig({});
    expect(config.host).toBe("127.0.0.1");
    expect(config.port).toBe(3001);
    expect(config.database).toEqual({ kind: "pglite", dataDir: path.resolve(".data", "pglite") });
    expect(config.firebase).toEqual({ projectId: "demo-argus", authEmulatorHost: undefined });
    expect(config.session).toEqual({
      secret: undefined,
      issuer: SESSION_ISSUER_DEFAULT,
      audience: SESSION_AUDIENCE_DEFAULT,
      ttlSeconds: SESSION_COOKIE_MAX_AGE_SECONDS,
    });
  });

  it("uses Postgres when DATABASE_URL is set, and memory for DATA_DIR=memory://", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@db:5432/argus" }).database).toEqual({
      kind: "postgres",
      url: "postgres://u:p@db:5432/argus",
    });
    expect(loadConfig({ DATA_DIR: "memory://" }).database).toEqual({ kind: "pglite", dataDir: undefined });
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", BACKEND_PORT: "" }).port).toBe(3001);
  });

  it("refuses a SESSION_SECRET that is set but empty", () => {
    expect(configError({ SESSION_SECRET: "" })).toContain("SESSION_SECRET: must be at least 32 bytes long");
  });

  it("accepts a 32-byte SESSION_SECRET and rejects a shorter one", () => {
    expect(loadConfig({ SESSION_SECRET: SECRET_32 }).session.secret).toBe(SECRET_32);
    expect(configError({ SESSION_SECRET: SECRET_32.slice(1) })).toContain(
      "SESSION_SECRET: must be at least 32 bytes long",
    );
  });

  it("names every bad variable in one message", () => {
    const message = configError({
      BACKEND_PORT: "http",
      DATABASE_URL: "mysql://x/y",
      SESSION_TTL_SECONDS: "-1",
    });
    expect(message).toContain("BACKEND_PORT: must be a port number");
    expect(message).toContain("DATABASE_URL: must be a postgres:// or postgresql:// URL");
    expect(message).toContain("SESSION_TTL_SECONDS: must be a whole number of seconds");
  });

  it("refuses the Firebase emulator and demo projects in production, but allows them elsewhere", () => {
    const emulator = { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };
    expect(loadConfig({ ...emulator, NODE_ENV: "development" }).firebase.authEmulatorHost).toBe(
      "127.0.0.1:9099",
    );
    expect(configError({ ...emulator, NODE_ENV: "production", FIREBASE_PROJECT_ID: "argus-prod" })).toContain(
      "FIREBASE_AUTH_EMULATOR_HOST: must not be set in production",
    );
    expect(configError({ NODE_ENV: "production" })).toContain("FIREBASE_PROJECT_ID: a demo- project");
    expect(loadConfig({ NODE_ENV: "production", FIREBASE_PROJECT_ID: "argus-prod" }).firebase.projectId).toBe(
      "argus-prod",
    );
  });

  it("accepts only development, production and test as NODE_ENV, so a near-miss is not development", () => {
    expect(configError({ NODE_ENV: "prod", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" })).toContain(
      "NODE_ENV:",
    );
  });

  it("lets production use the emulator and its demo- project with LOCAL_MODE=true only", () => {
    const local = { NODE_ENV: "production", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };
    expect(configError(local)).toContain("FIREBASE_AUTH_EMULATOR_HOST: must not be set in production");
    const config = loadConfig({ ...local, LOCAL_MODE: "true" });
    expect(config).toMatchObject({ nodeEnv: "production", localMode: true });
    expect(config.firebase).toEqual({ projectId: "demo-argus", authEmulatorHost: "127.0.0.1:9099" });
    // Local mode without the emulator: a demo- project would reach for Google and fail there.
    expect(configError({ NODE_ENV: "production", LOCAL_MODE: "true" })).toContain(
      "FIREBASE_PROJECT_ID: a demo- project",
    );
    expect(loadConfig({}).localMode).toBe(false);
  });
});
