/** Vitest wiring for the fake backend (kept apart so the benchmarks can use the fake without vitest). */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { API_PATHS } from "../../shared/contract/common.ts";
import { type FakeBackend, type RecordedCall, startFakeBackend } from "./fake-backend.ts";

/**
 * Starts one fake backend for a test file and resets what tests change on it before each test.
 * Returns a getter, since the backend exists only once beforeAll has run.
 */
export function fakeBackendForFile(): () => FakeBackend {
  let backend: FakeBackend | undefined;
  beforeAll(async () => {
    backend = await startFakeBackend();
  });
  afterAll(() => backend?.close());
  beforeEach(() => {
    if (!backend) return;
    backend.calls.length = 0;
    backend.refreshRefused = false;
    backend.refreshClaims = {};
    backend.currentNames = {};
    backend.refreshGate = undefined;
    backend.jwksDown = false;
    backend.projectsDelayMs = 0;
    backend.signInToken = () => (backend as FakeBackend).mint();
  });
  return () => {
    if (!backend) throw new Error("the fake backend starts in beforeAll");
    return backend;
  };
}

/** Calls that reached the backend's API, leaving out the gateway's own key fetches, session checks and rate-limit counts. */
export function apiCallsOf(backend: FakeBackend): RecordedCall[] {
  return backend.calls.filter(
    (call) =>
      call.path !== API_PATHS.jwks &&
      call.path !== API_PATHS.sessionStatus &&
      call.path !== API_PATHS.authRateLimitHit,
  );
}
