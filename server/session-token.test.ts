import { generateKeyPair, SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../shared/contract/accounts.ts";
import { loadConfig } from "./config.ts";
import { createTokenVerifier } from "./session-token.ts";

const SECRET = "a-shared-secret-that-is-long-enough-123";
const config = loadConfig({
  NODE_ENV: "test",
  SESSION_SECRET: SECRET,
  FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
});
const claims = {
  sid: "s1",
  orgId: "o1",
  email: "a@example.com",
  name: "A",
  role: "user",
  provider: "email",
  orgName: "O",
} as const;

function sign(expiresInSeconds: number, authTime = Math.floor(Date.now() / 1000)) {
  return new SignJWT({ ...claims, auth_time: authTime })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("u1")
    .setIssuer(SESSION_ISSUER_DEFAULT)
    .setAudience(SESSION_AUDIENCE_DEFAULT)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(new TextEncoder().encode(SECRET));
}

afterEach(() => {
  vi.useRealTimers();
});

describe("createTokenVerifier", () => {
  it("accepts a good token again from memory, but not once it has expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const verify = createTokenVerifier(config);
    const token = await sign(30);
    expect((await verify(token))?.sub).toBe("u1");
    expect((await verify(token))?.sub).toBe("u1");
    vi.setSystemTime(Date.now() + 40_000);
    expect(await verify(token)).toBeNull();
  });

  it("refuses a remembered token once it passes the absolute lifetime", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const verify = createTokenVerifier(config);
    const thirtyDays = 30 * 24 * 3600;
    const token = await sign(3600, Math.floor(Date.now() / 1000) - thirtyDays + 10);
    expect(await verify(token)).not.toBeNull();
    vi.setSystemTime(Date.now() + 20_000);
    expect(await verify(token)).toBeNull();
  });

  it("never remembers a refusal: a forged token stays refused and a good one still passes", async () => {
    const verify = createTokenVerifier(config);
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT({ ...claims, auth_time: 0 })
      .setProtectedHeader({ alg: "ES256" })
      .setSubject("u1")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    expect(await verify(forged)).toBeNull();
    expect(await verify(forged)).toBeNull();
    expect(await verify(await sign(60))).not.toBeNull();
  });
});
