import { describe, expect, it } from "vitest";
import { formatRole, formatSnakeWords, initialOf, shortId } from "./format.ts";

describe("formatRole", () => {
  it("splits on underscores and capitalises each word", () => {
    expect(formatRole("org_admin")).toBe("Org Admin");
    expect(formatRole("SUPER_ADMIN")).toBe("Super Admin");
    expect(formatRole("member")).toBe("Member");
  });

  it("shows an empty role as User", () => {
    expect(formatRole("")).toBe("User");
    expect(formatRole(undefined)).toBe("User");
    expect(formatRole("__")).toBe("User");
  });

  it("formats setting categories the same way", () => {
    expect(formatSnakeWords("review_settings")).toBe("Review Settings");
  });
});

describe("shortId and initialOf", () => {
  it("keeps the last 8 characters", () => {
    expect(shortId("0123456789abcdef")).toBe("89abcdef");
    expect(shortId("abc")).toBe("abc");
  });

  it("takes the first letter upper-cased", () => {
    expect(initialOf("acme")).toBe("A");
    expect(initialOf("  ")).toBe("?");
  });
});
