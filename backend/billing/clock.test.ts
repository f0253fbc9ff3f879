import { describe, expect, it } from "vitest";
import { addOneMonth, daysUntil } from "./clock.ts";

describe("billing days", () => {
  it("counts calendar days, so the whole last day is day 0 and the next one -1", () => {
    const end = new Date("2026-03-16T10:30:00Z");
    expect(daysUntil(end, new Date("2026-03-02T10:30:00Z"))).toBe(14);
    expect(daysUntil(end, new Date("2026-03-15T23:59:59Z"))).toBe(1);
    expect(daysUntil(end, new Date("2026-03-16T00:00:00Z"))).toBe(0);
    expect(daysUntil(end, new Date("2026-03-16T23:59:59Z"))).toBe(0);
    expect(daysUntil(end, new Date("2026-03-17T00:00:00Z"))).toBe(-1);
  });

  it("moves a period one month on, keeping the day or taking the month's last", () => {
    expect(addOneMonth(new Date("2026-03-02T10:30:00Z")).toISOString()).toBe("2026-04-02T10:30:00.000Z");
    expect(addOneMonth(new Date("2026-01-31T08:00:00Z")).toISOString()).toBe("2026-02-28T08:00:00.000Z");
    expect(addOneMonth(new Date("2026-12-15T00:00:00Z")).toISOString()).toBe("2027-01-15T00:00:00.000Z");
  });
});
