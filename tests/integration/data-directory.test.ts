/**
 * The data directory as the real services leave it, started as `npm start` starts them
 * (scripts/lib/stack.ts: production mode, local mode, no SECRETS_ENCRYPTION_KEY) on a fresh
 * DATA_DIR: owner-only modes, and the session signing key sealed in the database's files
 * (docs/security.md#secrets-at-rest). The services write their log into the work folder themselves.
 */
import { mkdtemp, readFile, readlink, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../backend/db/database.ts";
import { sealedKeyId } from "../../backend/secrets/secret-box.ts";
import { startStackIn } from "../../scripts/lib/stack.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { notPrivate } from "../support/file-modes.ts";
import { createEmulatorUser, signInOnEmulator } from "../support/firebase-emulator-users.ts";

/** Starting the emulator, the backend and the gateway takes a while on a busy machine. */
const STACK_MS = 180_000;

describe("the data directory of the running product", () => {
  it(
    "is the backend's alone (0700, files 0600), and its database holds the signing key sealed",
    async () => {
      const workDir = await mkdtemp(path.join(tmpdir(), "argus-data-dir-"));
      const stack = await startStackIn(workDir, {});
      try {
        // A signed-in user, through the gateway: the key has signed a session.
        const user = { email: "owner@example.com", password: "Data-Dir-Pass-1!", emailVerified: true };
        const { uid } = await createEmulatorUser(stack.emulatorHost, stack.projectId, user);
        const idToken = await signInOnEmulator(stack.emulatorHost, user.email, user.password);
        const login = await fetch(`${stack.gatewayUrl}${API_PATHS.login}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: stack.gatewayUrl },
          body: JSON.stringify({ email: user.email, firebase_uid: uid, idToken }),
        });
        expect(login.status).toBe(200);
        const cookie = login.headers.getSetCookie()[0]?.split(";")[0] ?? "";
        const own = await fetch(`${stack.gatewayUrl}${API_PATHS.subscription}`, { headers: { cookie } });
        expect(own.status).toBe(200);

        // The services' standard output is the log file itself (no relay through the launcher), and
        // one request id is on the gateway's line and the backend's.
        const logFile = path.join(workDir, "services.log");
        for (const pid of Object.values(stack.pids))
          expect(await readlink(`/proc/${pid}/fd/1`)).toBe(logFile);
        await vi.waitFor(async () => {
          const lines = (await readFile(logFile, "utf8"))
            .split("\n")
            .filter((line) => line.startsWith("{"))
            .map((line) => JSON.parse(line) as { name?: string; req?: { id?: string; path?: string } })
            .filter((line) => line.req?.path === API_PATHS.subscription);
          const gateway = lines.find((line) => line.name === "gateway");
          expect(gateway?.req?.id).toBeTruthy();
          expect(lines.find((line) => line.name === "backend")?.req?.id).toBe(gateway?.req?.id);
        });

        const dataDir = path.join(workDir, "data");
        expect(await notPrivate(dataDir)).toEqual([]);

        // The database's files, as someone who copied them reads them (PGlite has one process).
        await stack.stopBackend();
        const copy = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
        try {
          const stored = await copy
            .selectFrom("signing_keys")
            .select(["kid", "private_jwk", "public_jwk"])
            .executeTakeFirstOrThrow();
          expect(sealedKeyId(stored.private_jwk)).toMatch(/^[0-9a-f]{8}$/);
          expect(() => JSON.parse(stored.private_jwk)).toThrow();
          // The public half stays readable: the gateway's JWKS publishes it anyway.
          expect(JSON.parse(stored.public_jwk)).toMatchObject({ kty: "EC", crv: "P-256" });
        } finally {
          await copy.destroy();
        }
      } finally {
        await stack.stop();
        await rm(workDir, { recursive: true, force: true });
      }
    },
    STACK_MS,
  );
});
