import { describe, expect, it } from "vitest";
import { formatCount, formatDateTime } from "./formats";

describe("formats", () => {
  it("writes counts with thousands separators", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(1991)).toBe("1,991");
    expect(formatCount(12_000_000)).toBe("12,000,000");
  });

  it("writes a moment as day, short month, year and the time in UTC, whatever the machine's zone", () => {
    expect(formatDateTime("2026-11-27T06:31:05.000Z")).toBe("27 Nov 2026, 06:31 UTC");
    expect(formatDateTime("2026-11-27T23:59:59+02:00", { seconds: true })).toBe("27 Nov 2026, 21:59:59 UTC");
  });

  it("returns text that is not a moment as it is", () => {
    expect(formatDateTime("soon")).toBe("soon");
  });
});
