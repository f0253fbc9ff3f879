/**
 * The README's first command, as a user runs it: `npm start` serves the product in production mode,
 * with local mode on for the Firebase Auth emulator, and Ctrl-C stops it.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claimPort } from "../../scripts/lib/ports.ts";

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    (response) => response.status,
    () => "refused",
  );

/** `npm start` on ports of its own, with a data folder of its own that its processes carry in their environment. */
async function startCommand(ports: { gatewayPort?: number } = {}) {
  const gatewayPort = ports.gatewayPort ?? (await claimPort());
  const [backendPort, emulatorPort] = [await claimPort(), await claimPort()];
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "argus-start-")), "data");
  const child = spawn(process.execPath, ["scripts/start.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(gatewayPort),
      BACKEND_PORT: String(backendPort),
      FIREBASE_AUTH_EMULATOR_PORT: String(emulatorPort),
      DATA_DIR: dataDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, gatewayPort, backendPort, emulatorPort, dataDir };
}

/** The processes, other than `launcher`, whose environment names `dataDir`: what `npm start` launched. */
async function launchedBy(launcher: number, dataDir: string): Promise<number[]> {
  const pids = (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry)).map(Number);
  const environments = await Promise.all(
    pids.map((pid) => readFile(`/proc/${pid}/environ`, "latin1").catch(() => "")),
  );
  return pids.filter(
    (pid, index) => pid !== launcher && environments[index]?.split("\0").includes(`DATA_DIR=${dataDir}`),
  );
}

/** What the command writes, as it comes. */
function outputOf(child: ReturnType<typeof spawn>) {
  const output = { stdout: "", stderr: "" };
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
  });
  return output;
}

/** The command's exit code, or "still running" after `timeoutMs`. */
function exitWithin(child: ReturnType<typeof spawn>, timeoutMs: number): Promise<unknown> {
  return Promise.race([
    once(child, "exit").then(([code]) => code),
    new Promise((resolve) => setTimeout(resolve, timeoutMs, "still running")),
  ]);
}

/** What the command launched and left running, once a service stopped by SIGTERM had time to close. */
function leftRunning(launcher: ReturnType<typeof spawn>, dataDir: string): Promise<number[]> {
  return until(
    () => launchedBy(launcher.pid ?? 0, dataDir),
    (pids) => pids.length === 0,
    15_000,
  );
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

describe("npm start", () => {
  it("starts emulator, backend and gateway in production and local mode, prints the URL last, and stops all three on Ctrl-C", async () => {
    const { child, gatewayPort, backendPort, emulatorPort } = await startCommand();
    const url = `http://127.0.0.1:${gatewayPort}`;
    const lines: string[] = [];
    const printedUrl = new Promise<string | undefined>((resolve) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        lines.push(...chunk.split("\n").filter(Boolean));
        if (lines.includes(url)) resolve(lines.at(-1));
      });
      child.once("exit", () => resolve(undefined));
    });
    child.stderr.resume();

    expect(await printedUrl).toBe(url);
    expect(await answers(`${url}/healthz`)).toBe(200);
    const login = await fetch(`${url}/login`);
    expect(await login.text()).toContain("Welcome");
    expect(await answers(`http://127.0.0.1:${backendPort}/healthz`)).toBe(200);
    expect(await answers(`http://127.0.0.1:${emulatorPort}/`)).toBe(200);
    // Each service says how it runs; "production" is the start script's choice, over NODE_ENV=test.
    const mode = `(production mode; local mode: Firebase Auth emulator at 127.0.0.1:${emulatorPort} — not for production)`;
    const banner = (service: string) =>
      lines.find((line) => line.includes(` ${service} `) && line.includes(" listening at "));
    expect(banner("gateway")).toContain(`gateway listening at ${url} ${mode}`);
    expect(banner("backend")).toContain(`backend listening at http://127.0.0.1:${backendPort} ${mode}`);

    child.kill("SIGINT");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(await answers(`${url}/healthz`)).toBe("refused");
    expect(await answers(`http://127.0.0.1:${backendPort}/healthz`)).toBe("refused");
    expect(await answers(`http://127.0.0.1:${emulatorPort}/`)).toBe("refused");
  }, 180_000);

  it("leaves nothing running when Ctrl-C comes while it is still starting", async () => {
    const { child, emulatorPort, dataDir } = await startCommand();
    child.stdout.resume();
    child.stderr.resume();
    // The emulator starts first; Ctrl-C once it answers, before the services are up.
    const emulator = await until(
      () => answers(`http://127.0.0.1:${emulatorPort}/`),
      (status) => status === 200,
      120_000,
    );
    expect(emulator).toBe(200);
    expect(await launchedBy(child.pid ?? 0, dataDir)).not.toEqual([]);

    child.kill("SIGINT");
    await once(child, "exit");
    expect(await leftRunning(child, dataDir)).toEqual([]);
    expect(await answers(`http://127.0.0.1:${emulatorPort}/`)).toBe("refused");
  }, 180_000);

  it("refuses to start, and says why, when the gateway's port is taken (another npm start answering on it)", async () => {
    // Something that answers every request with 200, as an Argus already running would answer /healthz.
    const squatter = createServer((_request, response) => response.end("ok"));
    const gatewayPort = await claimPort();
    await new Promise<void>((resolve) => squatter.listen(gatewayPort, "127.0.0.1", resolve));
    try {
      const { child, emulatorPort, dataDir } = await startCommand({ gatewayPort });
      const output = outputOf(child);
      const exit = await exitWithin(child, 60_000);
      child.kill("SIGINT");
      expect(exit).toBe(1);
      expect(output.stderr).toContain(
        `gateway: port ${gatewayPort} is already in use. Is the product already running?`,
      );
      expect(output.stdout).not.toContain(`http://127.0.0.1:${gatewayPort}`);
      expect(await launchedBy(child.pid ?? 0, dataDir)).toEqual([]);
      expect(await answers(`http://127.0.0.1:${emulatorPort}/`)).toBe("refused");
    } finally {
      squatter.close();
    }
  }, 120_000);

  it("stops the rest and exits with an error when a service dies while it runs", async () => {
    const { child, gatewayPort, backendPort, emulatorPort, dataDir } = await startCommand();
    const output = outputOf(child);
    const url = `http://127.0.0.1:${gatewayPort}`;
    // The URL on a line of its own: the launcher's last line, once all three are ready.
    const ready = (text: string) => text.split("\n").includes(url);
    expect(ready(await until(async () => output.stdout, ready, 120_000))).toBe(true);
    const gateway = (await launchedBy(child.pid ?? 0, dataDir)).find((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("server/index.ts"),
    );
    expect(gateway).toBeDefined();

    process.kill(gateway ?? 0, "SIGKILL");
    const exit = await exitWithin(child, 30_000);
    child.kill("SIGINT");
    expect(exit).toBe(1);
    expect(output.stderr).toContain("The gateway stopped unexpectedly (SIGKILL); stopping the rest.");
    expect(await leftRunning(child, dataDir)).toEqual([]);
    expect(await answers(`http://127.0.0.1:${backendPort}/healthz`)).toBe("refused");
    expect(await answers(`http://127.0.0.1:${emulatorPort}/`)).toBe("refused");
  }, 180_000);
});
