import { describe, expect, it } from "vitest";
import { rssFromStatus, trendOf } from "./memory.ts";

describe("rssFromStatus", () => {
  it("reads VmRSS in MB", () => {
    expect(rssFromStatus("Name:\tnode\nVmPeak:\t 900000 kB\nVmRSS:\t  204800 kB\nVmData:\t 1 kB\n")).toBe(
      200,
    );
  });
  it("refuses a status without it", () => {
    expect(() => rssFromStatus("Name:\tzombie\n")).toThrow(/VmRSS/);
  });
});

describe("trendOf", () => {
  it("gives the first and last samples and the slope per minute", () => {
    const trend = trendOf([
      { seconds: 0, value: 100 },
      { seconds: 60, value: 102 },
      { seconds: 120, value: 104 },
    ]);
    expect(trend).toMatchObject({ firstMb: 100, lastMb: 104 });
    expect(trend.slopeMbPerMinute).toBeCloseTo(2);
  });
});
