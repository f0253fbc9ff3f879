import { describe, expect, it } from "vitest";
import { createSecretBox, keyIdOf, sealedKeyId } from "./secret-box.ts";

const KEY = Buffer.alloc(32, 1);
const OLD_KEY = Buffer.alloc(32, 2);
const box = (key: Buffer, previousKeys: Buffer[] = []) =>
  createSecretBox({ key, previousKeys, keyFile: undefined });

describe("the secret box", () => {
  it("seals with AES-256-GCM under a fresh IV, naming the key, and opens what it sealed", async () => {
    const first = await box(KEY).seal("sk-secret", "org-1");
    const second = await box(KEY).seal("sk-secret", "org-1");
    expect(first).not.toBe(second);
    const [format, keyId, iv, body] = first.split(":");
    expect(format).toBe("v1");
    expect(keyId).toBe(keyIdOf(KEY));
    expect(Buffer.from(iv ?? "", "base64")).toHaveLength(12);
    // The text and a 16-byte tag.
    expect(Buffer.from(body ?? "", "base64")).toHaveLength("sk-secret".length + 16);
    expect(first).not.toContain("sk-secret");
    expect(await box(KEY).open(first, "org-1")).toEqual({ ok: true, value: "sk-secret" });
  });

  it("opens with a previous key once the current one rotated, and seals with the current one", async () => {
    const sealedBefore = await box(OLD_KEY).seal("sk-old", "org-1");
    const rotated = box(KEY, [OLD_KEY]);
    expect(await rotated.open(sealedBefore, "org-1")).toEqual({ ok: true, value: "sk-old" });
    expect((await rotated.seal("sk-new", "org-1")).split(":")[1]).toBe(keyIdOf(KEY));
  });

  it("refuses a value of a key it does not know, of another context, or altered", async () => {
    const sealed = await box(OLD_KEY).seal("sk-old", "org-1");
    expect(await box(KEY).open(sealed, "org-1")).toEqual({
      ok: false,
      reason: "unknown-key",
      keyId: keyIdOf(OLD_KEY),
    });
    expect(await box(OLD_KEY).open(sealed, "org-2")).toMatchObject({ ok: false, reason: "corrupt" });
    const [format, keyId, iv, body = ""] = sealed.split(":");
    const flipped = Buffer.from(body, "base64");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const altered = [format, keyId, iv, flipped.toString("base64")].join(":");
    expect(await box(OLD_KEY).open(altered, "org-1")).toMatchObject({ ok: false, reason: "corrupt" });
    expect(await box(OLD_KEY).open("sk-plain-text", "org-1")).toMatchObject({ ok: false, reason: "corrupt" });
  });

  it("names a key by a hash prefix that does not reveal it, and tells which key sealed a value", async () => {
    expect(sealedKeyId(await box(KEY).seal("sk-secret", "org-1"))).toBe(keyIdOf(KEY));
    expect(sealedKeyId('{"kty":"EC"}')).toBeUndefined();
    expect(keyIdOf(KEY)).toMatch(/^[0-9a-f]{8}$/);
    expect(keyIdOf(KEY)).not.toBe(keyIdOf(OLD_KEY));
    expect(KEY.toString("hex")).not.toContain(keyIdOf(KEY));
  });
});
