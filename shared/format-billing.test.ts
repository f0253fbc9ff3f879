import { describe, expect, it } from "vitest";
import { formatDate, formatMoney } from "./format-billing.ts";

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
