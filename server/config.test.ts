import { describe, expect, it } from "vitest";
import { configErrorOf } from "../tests/support/config-error.ts";
import { loadConfig } from "./config.ts";

/** What a real deployment sets at least: its own Firebase project and the address browsers use. */
const PRODUCTION = {
  NODE_ENV: "production",
  FIREBASE_API_KEY: "public-web-key",
  FIREBASE_PROJECT_ID: "argus-prod",
  PUBLIC_ORIGIN: "https://argus.example.com",
};
const EMULATOR = { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };

const configError = (env: NodeJS.ProcessEnv) => configErrorOf(loadConfig, env);

describe("public origin", () => {
  it("defaults to http://HOST:PORT outside production", () => {
    expect(loadConfig(EMULATOR).publicOrigin).toBe("http://127.0.0.1:3000");
    expect(loadConfig({ ...EMULATOR, NODE_ENV: "test", HOST: "localhost", PORT: "8080" }).publicOrigin).toBe(
      "http://localhost:8080",
    );
    expect(loadConfig({ ...EMULATOR, HOST: "::1" }).publicOrigin).toBe("http://[::1]:3000");
  });

  it("is kept as a serialised origin: lower-case, default port dropped, no trailing slash", () => {
    expect(loadConfig({ ...PRODUCTION, PUBLIC_ORIGIN: "HTTPS://Argus.Example.com:443/" }).publicOrigin).toBe(
      "https://argus.example.com",
    );
    expect(loadConfig({ ...PRODUCTION, PUBLIC_ORIGIN: "https://argus.example.com:8443" }).publicOrigin).toBe(
      "https://argus.example.com:8443",
    );
  });

  it.each([
    "https://argus.example.com/app",
    "https://argus.example.com/?next=/home",
    "https://argus.example.com/#top",
    "https://user:pass@argus.example.com",
  ])("refuses %s: an origin has no path, query, fragment or credentials", (value) => {
    expect(configError({ ...EMULATOR, PUBLIC_ORIGIN: value })).toContain(
      "PUBLIC_ORIGIN: must be an origin only",
    );
  });

  it.each(["ftp://argus.example.com", "argus.example.com", "not a url"])("refuses %s once", (value) => {
    const message = configError({ ...EMULATOR, PUBLIC_ORIGIN: value });
    expect(message.match(/PUBLIC_ORIGIN/g)).toHaveLength(1);
    expect(message).toContain("PUBLIC_ORIGIN: must be an http:// or https:// origin");
  });

  it("is required in production", () => {
    expect(configError({ ...PRODUCTION, PUBLIC_ORIGIN: undefined })).toContain(
      "PUBLIC_ORIGIN: is required in production",
    );
  });

  it("must be https:// in production unless ALLOW_HTTP_ORIGIN=true", () => {
    const http = { ...PRODUCTION, PUBLIC_ORIGIN: "http://argus.example.com" };
    expect(configError(http)).toContain("PUBLIC_ORIGIN: must be https:// in production");
    expect(configError({ ...http, ALLOW_HTTP_ORIGIN: "false" })).toContain(
      "PUBLIC_ORIGIN: must be https:// in production",
    );
    const allowed = loadConfig({ ...http, ALLOW_HTTP_ORIGIN: "true" });
    expect(allowed.publicOrigin).toBe("http://argus.example.com");
    expect(allowed.allowHttpOrigin).toBe(true);
    expect(loadConfig(PRODUCTION).allowHttpOrigin).toBe(false);
  });

  it("takes http:// outside production without ALLOW_HTTP_ORIGIN", () => {
    expect(loadConfig({ ...EMULATOR, PUBLIC_ORIGIN: "http://argus.test:3000" }).publicOrigin).toBe(
      "http://argus.test:3000",
    );
  });
});

describe("local mode", () => {
  it("is off unless LOCAL_MODE=true", () => {
    expect(loadConfig(EMULATOR).localMode).toBe(false);
    expect(loadConfig({ ...EMULATOR, LOCAL_MODE: "false" }).localMode).toBe(false);
    expect(loadConfig({ ...EMULATOR, LOCAL_MODE: "true" }).localMode).toBe(true);
  });

  it.each(["yes", "1", "TRUE"])("refuses the flag value %s instead of reading it as off", (value) => {
    const message = configError({ ...EMULATOR, LOCAL_MODE: value, ALLOW_HTTP_ORIGIN: value });
    expect(message).toContain('LOCAL_MODE: must be "true" or "false"');
    expect(message).toContain('ALLOW_HTTP_ORIGIN: must be "true" or "false"');
  });

  it("lets production use the Firebase emulator only with LOCAL_MODE=true", () => {
    const withEmulator = { ...PRODUCTION, ...EMULATOR };
    expect(configError(withEmulator)).toContain("FIREBASE_AUTH_EMULATOR_HOST: must not be set in production");
    expect(configError({ ...withEmulator, LOCAL_MODE: "false" })).toContain(
      "FIREBASE_AUTH_EMULATOR_HOST: must not be set in production",
    );
    const local = loadConfig({ ...withEmulator, LOCAL_MODE: "true" });
    expect(local.env).toBe("production");
    expect(local.localMode).toBe(true);
    expect(local.firebase.emulatorUrl).toBe("http://127.0.0.1:9099");
  });
});

describe("shared rules", () => {
  it("accepts only development, production and test as NODE_ENV", () => {
    expect(configError({ ...EMULATOR, NODE_ENV: "prod" })).toContain("NODE_ENV:");
  });

  it("checks the emulator host, the project id and the secret length as the backend does", () => {
    const message = configError({
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1",
      FIREBASE_PROJECT_ID: "Not A Project",
      SESSION_SECRET: "x".repeat(31),
    });
    expect(message).toContain("FIREBASE_AUTH_EMULATOR_HOST: must be host:port");
    expect(message).toContain("FIREBASE_PROJECT_ID: must be a Firebase project id");
    expect(message).toContain("SESSION_SECRET: must be at least 32 bytes long");
  });
});

describe("sockets to the backend and event streams", () => {
  it("keeps 256 sockets for calls and 512 for event streams, waits 5 s for one, and caps a session at 10 streams", () => {
    const config = loadConfig(EMULATOR);
    expect(config.proxySockets).toEqual({ calls: 256, streams: 512 });
    expect(config.proxySocketWaitMs).toBe(5000);
    expect(config.eventStreamsPerSession).toBe(10);
    const set = loadConfig({
      ...EMULATOR,
      PROXY_SOCKETS: "8",
      PROXY_STREAM_SOCKETS: "4",
      PROXY_SOCKET_WAIT_MS: "250",
      EVENT_STREAMS_PER_SESSION: "2",
    });
    expect(set.proxySockets).toEqual({ calls: 8, streams: 4 });
    expect(set.proxySocketWaitMs).toBe(250);
    expect(set.eventStreamsPerSession).toBe(2);
  });

  it.each(["0", "-1", "1.5", "many"])("refuses %s as a count", (value) => {
    const message = configError({
      ...EMULATOR,
      PROXY_SOCKETS: value,
      PROXY_STREAM_SOCKETS: value,
      PROXY_SOCKET_WAIT_MS: value,
      EVENT_STREAMS_PER_SESSION: value,
    });
    for (const name of [
      "PROXY_SOCKETS",
      "PROXY_STREAM_SOCKETS",
      "PROXY_SOCKET_WAIT_MS",
      "EVENT_STREAMS_PER_SESSION",
    ]) {
      expect(message).toContain(`${name}:`);
    }
  });
});
