import { describe, expect, it } from "vitest";
import { median, medianItem, quantile, ratio, slopePerMinute } from "./stats.ts";

describe("median", () => {
  it("takes the middle of an odd count, whatever the order", () => {
    expect(median([30, 10, 20])).toBe(20);
  });
  it("takes the mean of the two middle values of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it("refuses no values", () => {
    expect(() => median([])).toThrow();
  });
});

describe("medianItem", () => {
  it("is the item in the middle by its value, whatever the order", () => {
    const runs = [
      { score: 100, run: "a" },
      { score: 90, run: "b" },
      { score: 95, run: "c" },
    ];
    expect(medianItem(runs, (item) => item.score).run).toBe("c");
  });

  it("takes the lower middle item of an even count, and refuses none", () => {
    expect(medianItem([4, 1, 3, 2], (n) => n)).toBe(2);
    expect(() => medianItem([], (n: number) => n)).toThrow();
  });
});

describe("quantile", () => {
  const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
  it("takes the nearest rank", () => {
    expect(quantile(sorted, 0.5)).toBe(50);
    expect(quantile(sorted, 0.99)).toBe(99);
    expect(quantile([0.4, 0.7, 1.9], 0.5)).toBe(0.7);
  });
  it("is NaN for no values", () => {
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe("ratio", () => {
  it("divides", () => {
    expect(ratio(250, 1000)).toBe(0.25);
  });
  it("is NaN against nothing", () => {
    expect(ratio(5, 0)).toBeNaN();
  });
});

describe("slopePerMinute", () => {
  it("gives the growth per minute of a straight line", () => {
    const samples = [0, 10, 20, 30].map((seconds) => ({ seconds, value: 100 + seconds / 10 }));
    expect(slopePerMinute(samples)).toBeCloseTo(6);
  });
  it("is 0 for a flat line, and for fewer than two samples", () => {
    expect(slopePerMinute([0, 10, 20].map((seconds) => ({ seconds, value: 80 })))).toBe(0);
    expect(slopePerMinute([{ seconds: 0, value: 80 }])).toBe(0);
  });
  it("sees through noise around a flat line", () => {
    const values = [100, 104, 98, 103, 97, 102, 99];
    expect(Math.abs(slopePerMinute(values.map((value, i) => ({ seconds: i * 10, value }))))).toBeLessThan(6);
  });
});
