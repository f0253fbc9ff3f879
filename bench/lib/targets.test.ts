import { describe, expect, it } from "vitest";
import { atLeast, atMost, below, TARGETS, verdict } from "./targets.ts";

describe("verdict", () => {
  it("passes a figure at or above an at-least target", () => {
    expect(verdict(0.5, atLeast(0.5, ""))).toBe("pass");
    expect(verdict(0.49, atLeast(0.5, ""))).toBe("fail");
  });
  it("passes a figure at or below an at-most target", () => {
    expect(verdict(250, atMost(250, ""))).toBe("pass");
    expect(verdict(251, atMost(250, ""))).toBe("fail");
  });
  it("passes only a figure strictly below a below target", () => {
    expect(verdict(1.99, below(2, ""))).toBe("pass");
    expect(verdict(2, below(2, ""))).toBe("fail");
  });
  it("neither passes nor fails a figure that was not taken", () => {
    expect(verdict(Number.NaN, TARGETS.proxyVsNginx)).toBe("n/a");
  });
  it("holds accessibility to a full score", () => {
    expect(verdict(99, TARGETS.lighthouseAccessibility)).toBe("fail");
    expect(verdict(100, TARGETS.lighthouseAccessibility)).toBe("pass");
  });
});
