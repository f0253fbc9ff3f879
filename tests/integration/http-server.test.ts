/** The one listen-and-shutdown implementation that the gateway and the backend both run. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { httpUrl, startServer } from "../../shared/node/http-server.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { captureLogs } from "../support/gateway.ts";

async function listen(shutdownTimeoutMs: number, events: string[]) {
  /** Answers /slow?ms=N after N ms (never, without ms), anything else at once. */
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const ms = new URL(req.url ?? "/", "http://x").searchParams.get("ms");
    if (!req.url?.startsWith("/slow")) {
      res.end("ok");
      return;
    }
    if (ms) setTimeout(() => res.end("slow", () => events.push("answered")), Number(ms));
  };
  const logs = captureLogs();
  const readiness = { shuttingDown: false };
  const running = await startServer(handler, {
    host: "127.0.0.1",
    port: 0,
    shutdownTimeoutMs,
    logger: createLogger({ name: "test", level: "info" }, logs.stream),
    readiness,
    onClosed: async () => {
      events.push("closed");
    },
  });
  return { running, readiness, logs };
}

describe("startServer", () => {
  it("lets an in-flight request finish, then releases resources, and refuses new connections", async () => {
    const events: string[] = [];
    const { running, readiness } = await listen(5000, events);
    const inFlight = fetch(`${running.url}/slow?ms=300`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = running.shutdown();
    expect(readiness.shuttingDown).toBe(true);
    expect(running.shutdown()).toBe(stopped);
    const started = Date.now();
    expect(await inFlight).toBe("slow");
    await stopped;
    // Released after the answer, and without waiting for the keep-alive connection to time out.
    expect(events).toEqual(["answered", "closed"]);
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(fetch(`${running.url}/`)).rejects.toThrow();
  });

  it("cuts a request that outlives the timeout, so shutdown always ends", async () => {
    const events: string[] = [];
    const { running, logs } = await listen(200, events);
    const hung = fetch(`${running.url}/slow`).catch(() => "cut");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await running.shutdown();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await hung).toBe("cut");
    expect(events).toEqual(["closed"]);
    expect(logs.text()).toContain("shutdown timeout reached");
  });

  it("formats its URL with an IPv6 host in brackets", () => {
    expect(httpUrl("127.0.0.1", 3000)).toBe("http://127.0.0.1:3000");
    expect(httpUrl("::1", 3000)).toBe("http://[::1]:3000");
  });
});

describe("shutDownOnSignals", () => {
  it("shuts down once on SIGTERM, even when the signal repeats, and exits 0", async () => {
    const module = path.resolve(import.meta.dirname, "../../shared/node/http-server.ts");
    const logging = path.resolve(import.meta.dirname, "../../shared/node/logging.ts");
    const script = `
      import { shutDownOnSignals, startServer } from ${JSON.stringify(module)};
      import { createLogger } from ${JSON.stringify(logging)};
      const logger = createLogger({ name: "test", level: "silent" });
      const running = await startServer((_req, res) => res.end(), {
        host: "127.0.0.1", port: 0, shutdownTimeoutMs: 2000, logger,
        onClosed: async () => { console.log("closed"); await new Promise((r) => setTimeout(r, 200)); },
      });
      shutDownOnSignals(running, logger);
      console.log("ready");
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (chunk.includes("ready")) {
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGTERM"), 50);
      }
    });
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(output.match(/closed/g)).toHaveLength(1);
  });
});
