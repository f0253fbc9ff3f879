import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect.ts";

describe("safeRedirectPath", () => {
  const hostile = [
    "//evil.com",
    "//evil.com/home",
    "/\\evil.com",
    "/\\/evil.com",
    "/http://evil.com",
    "/https://evil.com",
    "/HTTP://evil.com",
    "/httpevil",
    "http://evil.com",
    "https://evil.com/home",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "evil.com",
    "home",
    "\\\\evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "/\r\n//evil.com",
    " //evil.com",
    "",
    "%2F%2Fevil.com",
    "///evil.com",
  ];

  it.each(hostile)("sends %j to /", (target) => {
    expect(safeRedirectPath(target)).toBe("/");
  });

  it.each([null, undefined, 42, {}, ["/home"]])("sends the non-string %j to /", (target) => {
    expect(safeRedirectPath(target)).toBe("/");
  });

  it.each(["/home", "/settings?repositoryId=1&integrationName=github", "/integrations/github#setup", "/"])(
    "keeps the same-origin path %j",
    (target) => {
      expect(safeRedirectPath(target)).toBe(target);
    },
  );

  it("uses the given fallback", () => {
    expect(safeRedirectPath("//evil.com", "/home")).toBe("/home");
  });
});
