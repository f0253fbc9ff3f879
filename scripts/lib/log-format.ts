/**
 * `npm start` shows the services' pino logs to a person: one short line each, with the service's
 * name, instead of raw JSON. Lines that are not JSON (the emulator's own output) pass through.
 */
import { Transform } from "node:stream";

const LEVELS: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO ",
  40: "WARN ",
  50: "ERROR",
  60: "FATAL",
};

export function formatLogLine(service: string, line: string): string {
  const label = service.padEnd(8);
  try {
    const entry = JSON.parse(line) as {
      level?: number;
      time?: number;
      msg?: string;
      err?: { message?: string };
    };
    if (typeof entry !== "object" || entry === null || typeof entry.msg !== "string")
      return `${label} ${line}`;
    const time = new Date(entry.time ?? Date.now()).toTimeString().slice(0, 8);
    const level = LEVELS[entry.level ?? 30] ?? "INFO ";
    const detail = entry.err?.message ? ` (${entry.err.message})` : "";
    return `${time} ${level} ${label} ${entry.msg}${detail}`;
  } catch {
    return `${label} ${line}`;
  }
}

/** A stream that formats every complete line it is given. */
export function logFormatter(service: string): Transform {
  let partial = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (partial + chunk.toString("utf8")).split("\n");
      partial = lines.pop() ?? "";
      done(
        null,
        lines
          .filter(Boolean)
          .map((line) => `${formatLogLine(service, line)}\n`)
          .join(""),
      );
    },
    flush(done) {
      done(null, partial ? `${formatLogLine(service, partial)}\n` : "");
    },
  });
}
