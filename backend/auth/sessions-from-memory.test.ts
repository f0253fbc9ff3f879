/**
 * Live sessions answered from memory on embedded PGlite must never outlive a change: on each
 * database, a session answered a moment ago is refused at once after a logout or a revocation, and
 * a new name shows on the next call. On Postgres there is no cache, and the same behaviour holds by reading each time.
 */
import { afterEach, describe, expect, it } from "vitest";
import { API_PATHS } from "../../shared/contract/common.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { bearerCalls, testBackends } from "../../tests/support/test-backend.ts";
import type { Backend } from "../app.ts";
import { embeddedReadCache } from "../db/read-cache.ts";
import { authenticateSession, LIVE_SESSIONS, revokeUserSessions } from "./sessions.ts";

describe.each(TEST_DATABASE_KINDS)("sessions answered from memory on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  const calls = bearerCalls(() => backend.app);
  afterEach(() => backends.stop());

  it("is only kept on embedded PGlite", async () => {
    backend = await backends.start();
    expect(embeddedReadCache(backend.db, LIVE_SESSIONS) !== undefined).toBe(kind === "pglite");
  });

  it("refuses a session at once after its logout, though it was just answered", async () => {
    backend = await backends.start();
    const { token } = await signedInAccount(backend, "ada");
    for (let call = 0; call < 2; call += 1) {
      expect((await calls.get(token, API_PATHS.projects)).status).toBe(200);
    }
    expect((await calls.post(token, API_PATHS.logout, {})).status).toBe(204);
    expect((await calls.get(token, API_PATHS.projects)).status).toBe(401);
    expect((await calls.get(token, API_PATHS.sessionStatus)).status).toBe(401);
  });

  it("refuses every session of a user at once after they are revoked together", async () => {
    backend = await backends.start();
    const { token, userId } = await signedInAccount(backend, "bob");
    expect(await authenticateSession(backend.db, backend.tokens, token)).toBeDefined();
    await revokeUserSessions(backend.db, userId);
    expect(await authenticateSession(backend.db, backend.tokens, token)).toBeUndefined();
  });

  it("answers with the new names on the call after a rename", async () => {
    backend = await backends.start();
    const { token } = await signedInAccount(backend, "cy");
    expect((await authenticateSession(backend.db, backend.tokens, token))?.user.name).toBe("cy");
    const rename = { updateData: { name: "Cy Renamed" } };
    expect((await calls.post(token, API_PATHS.userUpdate, rename)).status).toBe(200);
    expect((await calls.post(token, API_PATHS.orgUpdate, rename)).status).toBe(200);
    const session = await authenticateSession(backend.db, backend.tokens, token);
    expect(session?.user.name).toBe("Cy Renamed");
    expect(session?.org.name).toBe("Cy Renamed");
  });
});
