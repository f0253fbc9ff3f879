import { describe, expect, it } from "vitest";
import { formatLogLine, logFormatter } from "./log-format.ts";

describe("formatLogLine", () => {
  it("turns a pino line into time, level, service and message", () => {
    const time = new Date(2026, 10, 22, 9, 5, 7).getTime();
    const line = JSON.stringify({
      level: 40,
      time,
      msg: "upstream failed",
      err: { message: "ECONNREFUSED" },
    });
    expect(formatLogLine("gateway", line)).toBe("09:05:07 WARN  gateway  upstream failed (ECONNREFUSED)");
  });

  it("passes other output through with the service's name", () => {
    expect(formatLogLine("identity", "✔  All emulators ready!")).toBe("identity ✔  All emulators ready!");
    expect(formatLogLine("backend", '{"no":"message"}')).toBe('backend  {"no":"message"}');
  });
});

describe("logFormatter", () => {
  it("formats whole lines even when they arrive split across chunks", async () => {
    const stream = logFormatter("backend");
    const out: string[] = [];
    stream.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    const line = JSON.stringify({ level: 30, time: 0, msg: "backend listening" });
    stream.write(line.slice(0, 10));
    stream.write(`${line.slice(10)}\nplain`);
    stream.end();
    await new Promise((resolve) => stream.on("end", resolve));
    expect(out.join("").split("\n")).toEqual([
      expect.stringMatching(/ INFO {2}backend {2}backend listening$/),
      "backend  plain",
      "",
    ]);
  });
});
