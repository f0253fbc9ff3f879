import { describe, expect, it } from "vitest";
import { parseOptions } from "./options.ts";

describe("parseOptions", () => {
  it("measures 3 runs of 5 s at 50 connections and soaks 5 minutes after 6 by default", () => {
    expect(parseOptions([])).toMatchObject({
      duration: 5,
      runs: 3,
      connections: 50,
      soakSeconds: 300,
      soakWarmupSeconds: 360,
      sampleSeconds: 10,
      writeReadme: true,
    });
  });
  it("is short with --quick and leaves the README alone", () => {
    expect(parseOptions(["--quick"])).toMatchObject({
      duration: 1,
      runs: 1,
      soakSeconds: 30,
      soakWarmupSeconds: 10,
      writeReadme: false,
    });
  });
  it("takes a duration, a soak and its warm-up", () => {
    expect(parseOptions(["--duration", "3", "--soak", "60", "--soak-warmup", "20"])).toMatchObject({
      duration: 3,
      soakSeconds: 60,
      soakWarmupSeconds: 20,
    });
  });
  it("refuses what is not a positive number", () => {
    expect(() => parseOptions(["--duration", "0"])).toThrow(/--duration/);
    expect(() => parseOptions(["--runs", "many"])).toThrow(/--runs/);
    expect(() => parseOptions(["--soak-warmup", "-5"])).toThrow(/--soak-warmup/);
  });
  it("runs only the sections --only names, and then leaves the README alone", () => {
    const options = parseOptions(["--only", "proxy, lighthouse"]);
    expect([...(options.only ?? [])]).toEqual(["proxy", "lighthouse"]);
    expect(options.writeReadme).toBe(false);
    expect(parseOptions([]).only).toBeUndefined();
    expect(() => parseOptions(["--only", "proxy,speed"])).toThrow(/not speed/);
  });
});
