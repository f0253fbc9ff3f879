import { describe, expect, it } from "vitest";
import { costMicros, priceTableSchema, utcMonth } from "./pricing.ts";

describe("AI pricing", () => {
  const prices = priceTableSchema.parse({ "gpt-4o-mini": { input: 0.15, output: 0.6 } });

  it("costs tokens in micro-dollars: USD per million tokens is micro-dollars per token", () => {
    expect(costMicros(prices, "gpt-4o-mini", { inputTokens: 10_000, outputTokens: 1_000 })).toBe(2_100);
    expect(costMicros(prices, "gpt-4o-mini", { inputTokens: 3, outputTokens: 0 })).toBe(0);
  });

  it("has no cost for a model without a price", () => {
    expect(costMicros(prices, "llama3.1:8b", { inputTokens: 10_000, outputTokens: 1_000 })).toBeNull();
  });

  it("rejects negative prices and unknown fields", () => {
    expect(priceTableSchema.safeParse({ m: { input: -1, output: 1 } }).success).toBe(false);
    expect(priceTableSchema.safeParse({ m: { input: 1, output: 1, cached: 0.5 } }).success).toBe(false);
  });

  it("bounds the calendar month in UTC", () => {
    expect(utcMonth(new Date("2026-12-31T23:59:59Z"))).toEqual({
      start: new Date("2026-12-01T00:00:00Z"),
      end: new Date("2027-01-01T00:00:00Z"),
    });
  });
});
