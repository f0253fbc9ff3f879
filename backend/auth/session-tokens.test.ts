import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { SESSION_ABSOLUTE_LIFETIME_SECONDS } from "../../shared/constants.ts";
import {
  createSessionTokens,
  epochSeconds,
  generateSessionKeyPair,
  InvalidSessionToken,
  type SessionIdentity,
  sessionKeyFromJwks,
  sessionKeyFromSecret,
} from "./session-tokens.ts";

const options = { issuer: "test-issuer", audience: "test-audience", ttlSeconds: 3600 };
const SECRET = "a-session-secret-of-at-least-32-bytes!";

function identity(authTime = epochSeconds()): SessionIdentity {
  return {
    sub: "3f1c2a5e-0000-4000-8000-000000000001",
    sid: "3f1c2a5e-0000-4000-8000-000000000002",
    orgId: "3f1c2a5e-0000-4000-8000-000000000003",
    email: "ada@example.com",
    name: "Ada",
    role: "owner",
    provider: "email",
    orgName: "Ada's organization",
    auth_time: authTime,
  };
}

async function es256Tokens() {
  const pair = await generateSessionKeyPair();
  return createSessionTokens(await sessionKeyFromJwks(pair.kid, pair.privateJwk, pair.publicJwk), options);
}

describe("session tokens", () => {
  it("round-trips exactly the session claims plus iss and aud (ES256, with kid)", async () => {
    const tokens = await es256Tokens();
    const now = epochSeconds();
    const token = await tokens.mint(identity(now), now);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "ES256", typ: "JWT" });
    expect(decodeProtectedHeader(token).kid).toBe(tokens.jwks()?.keys[0]?.kid);
    expect(Object.keys(decodeJwt(token)).sort()).toEqual(
      [...Object.keys(identity()), "iat", "exp", "iss", "aud"].sort(),
    );
    await expect(tokens.verify(token)).resolves.toEqual({ ...identity(now), iat: now, exp: now + 3600 });
  });

  it("verifies HS256 tokens with the shared secret and publishes no JWKS", async () => {
    const tokens = createSessionTokens(sessionKeyFromSecret(SECRET), options);
    expect(tokens.jwks()).toBeNull();
    const token = await tokens.mint(identity());
    expect(decodeProtectedHeader(token).alg).toBe("HS256");
    await expect(tokens.verify(token)).resolves.toMatchObject({ sub: identity().sub });
    const otherSecret = createSessionTokens(sessionKeyFromSecret(`${SECRET}-other`), options);
    await expect(otherSecret.verify(token)).rejects.toBeInstanceOf(InvalidSessionToken);
  });

  it("refuses a secret shorter than 32 bytes", () => {
    expect(() => sessionKeyFromSecret("short")).toThrow(/32 bytes/);
  });

  it("refuses tokens of another key, issuer or audience", async () => {
    const tokens = await es256Tokens();
    const token = await tokens.mint(identity());
    await expect((await es256Tokens()).verify(token)).rejects.toBeInstanceOf(InvalidSessionToken);
    const pair = await generateSessionKeyPair();
    const key = await sessionKeyFromJwks(pair.kid, pair.privateJwk, pair.publicJwk);
    const otherIssuer = await createSessionTokens(key, { ...options, issuer: "someone-else" }).mint(
      identity(),
    );
    const otherAudience = await createSessionTokens(key, { ...options, audience: "someone-else" }).mint(
      identity(),
    );
    const verifier = createSessionTokens(key, options);
    await expect(verifier.verify(otherIssuer)).rejects.toBeInstanceOf(InvalidSessionToken);
    await expect(verifier.verify(otherAudience)).rejects.toBeInstanceOf(InvalidSessionToken);
  });

  it("refuses expired tokens, beyond a small clock tolerance", async () => {
    const tokens = createSessionTokens(sessionKeyFromSecret(SECRET), options);
    const issuedAt = epochSeconds() - 10_000;
    const token = await tokens.mint(identity(issuedAt), issuedAt);
    await expect(tokens.verify(token, issuedAt + 3600 + 2)).resolves.toBeDefined();
    await expect(tokens.verify(token, issuedAt + 3600 + 60)).rejects.toBeInstanceOf(InvalidSessionToken);
    await expect(tokens.verify(token)).rejects.toBeInstanceOf(InvalidSessionToken);
  });

  it("still refuses a token once expired after its signature was checked and remembered", async () => {
    const tokens = await es256Tokens();
    const issuedAt = epochSeconds() - 100;
    const token = await tokens.mint(identity(issuedAt), issuedAt);
    await expect(tokens.verify(token, issuedAt + 10)).resolves.toMatchObject({ sub: identity().sub });
    await expect(tokens.verify(token, issuedAt + 20)).resolves.toBeDefined();
    await expect(tokens.verify(token, issuedAt + 3600 + 60)).rejects.toBeInstanceOf(InvalidSessionToken);
    // The signature's first character carries six of its bits (its last carries two, and padding).
    const signatureStart = token.lastIndexOf(".") + 1;
    const tampered = `${token.slice(0, signatureStart)}${token[signatureStart] === "A" ? "B" : "A"}${token.slice(signatureStart + 1)}`;
    expect(tampered).not.toBe(token);
    await expect(tokens.verify(tampered, issuedAt + 10)).rejects.toBeInstanceOf(InvalidSessionToken);
  });

  it("refuses a token without exp, an unsigned one, and one whose alg is not the key's", async () => {
    const tokens = createSessionTokens(sessionKeyFromSecret(SECRET), options);
    const claims = { ...identity(), iat: epochSeconds() };
    const secret = new TextEncoder().encode(SECRET);
    const withoutExp = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(options.issuer)
      .setAudience(options.audience)
      .sign(secret);
    await expect(tokens.verify(withoutExp)).rejects.toBeInstanceOf(InvalidSessionToken);
    const unsigned = new UnsecuredJWT(claims)
      .setIssuer(options.issuer)
      .setAudience(options.audience)
      .setExpirationTime("1h")
      .encode();
    await expect(tokens.verify(unsigned)).rejects.toBeInstanceOf(InvalidSessionToken);
    const hs512 = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS512" })
      .setIssuer(options.issuer)
      .setAudience(options.audience)
      .setExpirationTime("1h")
      .sign(secret);
    await expect(tokens.verify(hs512)).rejects.toBeInstanceOf(InvalidSessionToken);
  });

  it("never lets a token outlive the session's absolute lifetime", async () => {
    const tokens = createSessionTokens(sessionKeyFromSecret(SECRET), { ...options, ttlSeconds: 7 * 86_400 });
    const now = epochSeconds();
    const authTime = now - SESSION_ABSOLUTE_LIFETIME_SECONDS + 3600;
    const claims = await tokens.verify(await tokens.mint(identity(authTime), now), now);
    expect(claims.exp).toBe(authTime + SESSION_ABSOLUTE_LIFETIME_SECONDS);
    expect(claims.auth_time).toBe(authTime);
  });
});
