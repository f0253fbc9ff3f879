/** The Firebase adapter's side of the port: what it asks firebase-admin, and how it reads failures. */
import { Auth } from "firebase-admin/auth";
import { UnsecuredJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { claimPort } from "../../scripts/lib/ports.ts";
import {
  classifyIdentityError,
  createFirebaseIdentity,
  IdentityError,
  type IdentityVerifier,
} from "./firebase.ts";

const PROJECT_ID = "demo-identity-test";
const opened: IdentityVerifier[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const identity of opened.splice(0)) await identity.close();
});

/** An adapter whose "emulator" is a loopback port nobody listens on. */
async function unreachableIdentity(): Promise<IdentityVerifier> {
  const identity = createFirebaseIdentity({
    projectId: PROJECT_ID,
    authEmulatorHost: `127.0.0.1:${await claimPort()}`,
  });
  opened.push(identity);
  return identity;
}

describe("Firebase identity adapter", () => {
  it("asks firebase-admin to check revocation (and, with it, disabled users) on every ID token", async () => {
    const verify = vi.spyOn(Auth.prototype, "verifyIdToken").mockResolvedValue({
      uid: "uid-1",
      email: "a@example.com",
      email_verified: true,
      firebase: { sign_in_provider: "password" },
    } as Awaited<ReturnType<Auth["verifyIdToken"]>>);
    const identity = await unreachableIdentity();
    await expect(identity.verifyIdToken("an-id-token")).resolves.toMatchObject({ uid: "uid-1" });
    expect(verify).toHaveBeenCalledWith("an-id-token", true);
  });

  it("reads an unreachable identity provider as unavailable, for ID tokens and user lookups", async () => {
    const identity = await unreachableIdentity();
    const now = Math.floor(Date.now() / 1000);
    // The emulator's tokens are unsigned; firebase-admin then asks the emulator about the user.
    const idToken = new UnsecuredJWT({ auth_time: now, user_id: "uid-1", email: "a@example.com" })
      .setIssuer(`https://securetoken.google.com/${PROJECT_ID}`)
      .setAudience(PROJECT_ID)
      .setSubject("uid-1")
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .encode();
    await expect(identity.verifyIdToken(idToken)).rejects.toMatchObject({
      name: "IdentityError",
      reason: "unavailable",
    });
    const lookup = identity.getUser("uid-1");
    await expect(lookup).rejects.toBeInstanceOf(IdentityError);
    await expect(lookup).rejects.toMatchObject({ reason: "unavailable" });
  });

  it("maps firebase-admin error codes to reasons", () => {
    const cases: Array<[string, IdentityError["reason"] | undefined]> = [
      ["auth/user-disabled", "disabled"],
      ["auth/id-token-revoked", "revoked"],
      ["auth/invalid-id-token", "invalid"],
      ["auth/id-token-expired", "invalid"],
      ["auth/argument-error", "invalid"],
      ["auth/user-not-found", "invalid"],
      ["app/network-error", "unavailable"],
      ["app/network-timeout", "unavailable"],
      ["auth/internal-error", "unavailable"],
      ["auth/insufficient-permission", undefined],
    ];
    for (const [code, reason] of cases) expect(classifyIdentityError({ code }), code).toBe(reason);
    expect(classifyIdentityError(new Error("boom"))).toBeUndefined();
  });
});
