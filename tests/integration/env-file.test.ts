/**
 * The gateway and the backend read a .env file (the repository's, or ENV_FILE), and a variable set
 * in the real environment wins over the file. Each check runs the real entry point in a child
 * process with a minimal environment, so nothing of this test runner's environment leaks in.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function envFile(lines: string[]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "argus-env-")), ".env");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** Runs an entry point that is expected to refuse its configuration; returns what it printed. */
function refusedStart(script: string, env: Record<string, string>): string {
  const result = spawnSync(process.execPath, [script], { cwd: ROOT, env, encoding: "utf8", timeout: 15_000 });
  expect(result.status).toBe(1);
  return result.stderr;
}

describe(".env", () => {
  it("configures the backend, and the real environment wins over the file", () => {
    const file = envFile(["# a comment", "BACKEND_PORT=not-a-port", "SESSION_TTL_SECONDS=-1"]);
    const stderr = refusedStart("backend/index.ts", { ENV_FILE: file, SESSION_TTL_SECONDS: "60" });
    expect(stderr).toContain("BACKEND_PORT: must be a port number");
    expect(stderr).not.toContain("SESSION_TTL_SECONDS");
  });

  it("configures the gateway, and the real environment wins over the file", () => {
    const file = envFile(["PORT=not-a-port", "PROXY_TIMEOUT_MS=-5", "FIREBASE_API_KEY=k"]);
    const stderr = refusedStart("server/index.ts", { ENV_FILE: file, PROXY_TIMEOUT_MS: "1000" });
    expect(stderr).toContain("PORT: must be a port number");
    expect(stderr).not.toContain("PROXY_TIMEOUT_MS");
    expect(stderr).not.toContain("FIREBASE_API_KEY");
  });

  it("refuses an ENV_FILE that does not exist instead of starting without it", () => {
    const stderr = refusedStart("server/index.ts", { ENV_FILE: path.join(tmpdir(), "argus-no-such.env") });
    expect(stderr).toContain("ENV_FILE: cannot read");
  });

  it("gives the gateway its mode: NODE_ENV=production from the file", async () => {
    const file = envFile([
      "NODE_ENV=production",
      "PUBLIC_ORIGIN=https://argus.example.com",
      "FIREBASE_API_KEY=public-web-key",
      "FIREBASE_PROJECT_ID=argus-prod",
      "HOST=127.0.0.1",
      "PORT=0",
    ]);
    const gateway = spawn(process.execPath, ["server/index.ts"], {
      cwd: ROOT,
      env: { ENV_FILE: file },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    const banner = new Promise<string>((resolve, reject) => {
      gateway.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        const line = output.split("\n").find((entry) => entry.includes("gateway listening at"));
        if (line) resolve(JSON.parse(line).msg);
      });
      gateway.once("exit", (code) => reject(new Error(`gateway exited (${code}): ${output}`)));
    });
    try {
      expect(await banner).toMatch(/gateway listening at http:\/\/127\.0\.0\.1:\d+ \(production mode\)$/);
    } finally {
      gateway.kill("SIGTERM");
      await once(gateway, "exit");
    }
  });

  it("points npm run demo-account at the emulator port .env sets, as npm start uses", async () => {
    // A stand-in for the emulator: it records the paths asked and refuses them all.
    const paths: string[] = [];
    const emulator = createServer((request, response) => {
      paths.push(request.url ?? "");
      response.writeHead(500, { "content-type": "application/json" }).end('{"error":{"code":500}}');
    });
    emulator.listen(0, "127.0.0.1");
    await once(emulator, "listening");
    const { port } = emulator.address() as AddressInfo;
    try {
      const file = envFile([
        `FIREBASE_AUTH_EMULATOR_PORT=${port}`,
        "FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099",
      ]);
      const script = spawn(process.execPath, ["scripts/create-demo-account.ts"], {
        cwd: ROOT,
        env: { ENV_FILE: file, PATH: process.env.PATH },
        stdio: "ignore",
      });
      await once(script, "exit");
      expect(paths.some((entry) => entry.includes("/projects/demo-argus/accounts"))).toBe(true);
    } finally {
      emulator.close();
    }
  });
});
