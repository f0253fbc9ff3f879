import { describe, expect, it } from "vitest";
import { parseOptions } from "./options.ts";

describe("parseOptions", () => {
  it("measures 3 runs of 5 s at 50 connections and soaks 5 minutes by default", () => {
    expect(parseOptions([])).toMatchObject({
      duration: 5,
      runs: 3,
      connections: 50,
      soakSeconds: 300,
      sampleSeconds: 10,
      writeReadme: true,
    });
  });
  it("is short with --quick and leaves the README alone", () => {
    expect(parseOptions(["--quick"])).toMatchObject({
      duration: 1,
      runs: 1,
      soakSeconds: 30,
      writeReadme: false,
    });
  });
  it("takes a duration and a soak", () => {
    expect(parseOptions(["--duration", "3", "--soak", "60"])).toMatchObject({ duration: 3, soakSeconds: 60 });
  });
  it("refuses what is not a positive number", () => {
    expect(() => parseOptions(["--duration", "0"])).toThrow(/--duration/);
    expect(() => parseOptions(["--runs", "many"])).toThrow(/--runs/);
  });
  it("runs only the sections --only names, and then leaves the README alone", () => {
    const options = parseOptions(["--only", "proxy, lighthouse"]);
    expect([...(options.only ?? [])]).toEqual(["proxy", "lighthouse"]);
    expect(options.writeReadme).toBe(false);
    expect(parseOptions([]).only).toBeUndefined();
    expect(() => parseOptions(["--only", "proxy,speed"])).toThrow(/not speed/);
  });
});
