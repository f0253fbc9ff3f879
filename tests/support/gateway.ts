/** Builds a gateway for tests: real config parsing, a capturing logger and a fake or real backend. */
import { Writable } from "node:stream";
import { type AppDependencies, createApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { startServer } from "../../shared/node/http-server.ts";
import { createLogger } from "../../shared/node/logging.ts";

export function testEnv(backendUrl: string, overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: "test",
    BACKEND_URL: backendUrl,
    FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
    LOG_LEVEL: "info",
    ...overrides,
  };
}

/** Collects every log line the gateway writes, so tests can read them. */
export function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, text: () => lines.join("\n"), stream };
}

export function createTestGateway(
  backendUrl: string,
  overrides: Record<string, string> = {},
  deps: AppDependencies = {},
) {
  const config = loadConfig(testEnv(backendUrl, overrides));
  const logs = captureLogs();
  const gateway = createApp(config, {
    logger: createLogger({ name: "gateway", level: config.logLevel }, logs.stream),
    ...deps,
  });
  return { ...gateway, config, logs };
}

export function cookieHeader(token: string): string {
  return `auth_token=${token}`;
}

/** The auth_token Set-Cookie line of a response, if any. */
export function sessionCookieOf(headers: Record<string, unknown>): string | undefined {
  const setCookie = headers["set-cookie"];
  const lines = Array.isArray(setCookie) ? setCookie : typeof setCookie === "string" ? [setCookie] : [];
  return lines.find((line: string) => line.startsWith("auth_token="));
}

/** Listens on a free loopback port, for tests that need a real socket (aborts, shutdown). */
export function listenForTest(gateway: ReturnType<typeof createTestGateway>, shutdownTimeoutMs = 5000) {
  const { app, readiness, logger } = gateway;
  return startServer(app, { host: "127.0.0.1", port: 0, shutdownTimeoutMs, readiness, logger });
}
