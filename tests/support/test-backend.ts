/**
 * A backend on a fresh database for a test suite, and requests made as a signed-in user (the
 * bearer token the gateway would send). Shared by the backend's route tests.
 */
import request from "supertest";
import { type Backend, type BackendOptions, createBackend } from "../../backend/app.ts";
import { loadConfig } from "../../backend/config.ts";
import { type FreshDatabase, freshDatabase, type TestDatabaseKind } from "./databases.ts";

export const TEST_BACKEND_ENV = {
  LOG_LEVEL: "silent",
  SESSION_SECRET: "s".repeat(32),
  PUBLIC_ORIGIN: "http://127.0.0.1:3000",
};

/** Starts a backend on a fresh database of `kind` per `start`; `stop` closes it and drops the database. */
export function testBackends(kind: TestDatabaseKind) {
  let database: FreshDatabase | undefined;
  let backend: Backend | undefined;
  return {
    async start(env: Record<string, string> = {}, options?: BackendOptions): Promise<Backend> {
      database = await freshDatabase(kind);
      backend = await createBackend(loadConfig({ ...TEST_BACKEND_ENV, ...database.env, ...env }), options);
      return backend;
    },
    async stop(): Promise<void> {
      await backend?.close();
      await database?.drop();
      backend = undefined;
      database = undefined;
    },
  };
}

/** GET, POST, PUT and DELETE as the holder of `token`, against whichever backend `app` answers now. */
export function bearerCalls(app: () => Backend["app"]) {
  const as = (token: string) => `Bearer ${token}`;
  return {
    get: (token: string, path: string) => request(app()).get(path).set("Authorization", as(token)),
    post: (token: string, path: string, body: unknown) =>
      request(app())
        .post(path)
        .set("Authorization", as(token))
        .send(body as object),
    put: (token: string, path: string, body: unknown) =>
      request(app())
        .put(path)
        .set("Authorization", as(token))
        .send(body as object),
    delete: (token: string, path: string) => request(app()).delete(path).set("Authorization", as(token)),
  };
}
