import { describe, expect, it } from "vitest";
import { formatDate, formatLastActivity, formatMoney, formatRelativeTime } from "./format-billing.ts";

describe("formatDate", () => {
  it("shows day, short month and year, the same day in every time zone", () => {
    expect(formatDate("2026-12-07T23:30:00.000Z")).toBe("7 Dec 2026");
    expect(formatDate("2027-01-15")).toBe("15 Jan 2027");
  });

  it("shows N/A for no date and - for a value that is not one", () => {
    expect(formatDate(null)).toBe("N/A");
    expect(formatDate("")).toBe("N/A");
    expect(formatDate("soon")).toBe("-");
  });
});

describe("formatMoney", () => {
  it("divides minor units by 100 in US English currency format, USD by default", () => {
    expect(formatMoney(1999)).toBe("$19.99");
    expect(formatMoney(123456)).toBe("$1,234.56");
    expect(formatMoney(0)).toBe("$0.00");
  });

  it("uses the currency it is given, whatever its case", () => {
    expect(formatMoney(500, "eur")).toBe("€5.00");
  });
});

describe("formatRelativeTime and formatLastActivity", () => {
  const now = new Date("2026-11-23T12:00:00Z");

  it("says how long ago, or in how long, in the largest whole unit", () => {
    expect(formatRelativeTime("2026-11-20T11:00:00Z", now)).toBe("3 days ago");
    expect(formatRelativeTime("2026-11-22T13:00:00Z", now)).toBe("23 hours ago");
    expect(formatRelativeTime("2026-11-23T14:30:00Z", now)).toBe("in 2 hours");
    expect(formatRelativeTime("2026-11-23T11:59:40Z", now)).toBe("0 minutes ago");
    expect(formatRelativeTime("2025-10-01T00:00:00Z", now)).toBe("1 year ago");
    expect(formatRelativeTime("2026-09-01T00:00:00Z", now)).toBe("2 months ago");
  });

  it("shows N/A without a date and - for one that is not, and 'No activity yet' for no activity", () => {
    expect(formatRelativeTime(null, now)).toBe("N/A");
    expect(formatRelativeTime("later", now)).toBe("-");
    expect(formatLastActivity(null, now)).toBe("No activity yet");
    expect(formatLastActivity("2026-11-16T12:00:00Z", now)).toBe("1 week ago");
  });
});
