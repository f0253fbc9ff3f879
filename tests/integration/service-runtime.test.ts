/**
 * The services' memory settings (scripts/lib/stack.ts, docs/decisions/050-gateway-memory.md) reach
 * the processes `npm start` spawns, and glibc honours the gateway's: however many threads compress
 * answers at once, they share two malloc arenas. A probe script stands in for the service, started
 * with the command line and environment the launcher builds; the Dockerfile is held to the same
 * settings in dockerfile.test.ts.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICE_RUNTIME, type ServiceRuntime, serviceProcess } from "../../scripts/lib/stack.ts";

/**
 * Brotli allocates its buffers on libuv's threads, as the gateway's compression of pages and
 * proxied answers does; then the probe counts glibc's thread arenas (64 MB-aligned heaps of 64 MB,
 * reserved and partly usable) in its own memory map.
 */
const PROBE = `
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";
const compress = promisify(brotliCompress);
const input = randomBytes(1 << 18);
const params = { [constants.BROTLI_PARAM_QUALITY]: 4 };
await Promise.all(Array.from({ length: 16 }, () => compress(input, { params })));
const HEAP = 64 * 1024 * 1024;
const maps = readFileSync("/proc/self/maps", "utf8").trim().split("\\n").map((line) => {
  const [range, perms, , , , file] = line.split(/\\s+/);
  const [start, end] = range.split("-").map((hex) => Number.parseInt(hex, 16));
  return { start, end, perms, file };
});
const threadArenas = maps.filter((map, i) => {
  const next = maps[i + 1];
  const reserved = next?.start === map.end && next.perms.startsWith("---") ? next.end - next.start : 0;
  return !map.file && map.perms.startsWith("rw") && map.start % HEAP === 0 && map.end - map.start + reserved === HEAP;
}).length;
console.log(JSON.stringify({ threadArenas, execArgv: process.execArgv, arenaMax: process.env.MALLOC_ARENA_MAX ?? null }));
`;

let dir: string;
let probe: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "argus-runtime-"));
  probe = path.join(dir, "probe.mjs");
  await writeFile(probe, PROBE);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the probe as the launcher would start a service with `runtime`, from an empty environment. */
async function runProbe(runtime: ServiceRuntime, inherited: NodeJS.ProcessEnv = {}) {
  const started = serviceProcess(probe, runtime, { inherited, fixed: { NODE_ENV: "production" } });
  const { stdout } = await promisify(execFile)(started.command, started.args, { env: started.env });
  return JSON.parse(stdout) as { threadArenas: number; execArgv: string[]; arenaMax: string | null };
}

describe("the services' runtime settings", () => {
  it("start the gateway with its heap sizing, memory reducer and two malloc arenas, which glibc keeps to", async () => {
    const gateway = await runProbe(SERVICE_RUNTIME.gateway);
    expect(gateway.execArgv).toEqual([
      "--max-semi-space-size=4",
      "--heap-growing-percent=100",
      "--gc-memory-reducer-start-delay-ms=2000",
      "--expose-gc",
    ]);
    expect(gateway.arenaMax).toBe("2");
    // The main arena and one more.
    expect(gateway.threadArenas).toBeLessThanOrEqual(1);

    // Without the setting the same work spreads over an arena per thread.
    const unset = await runProbe({ v8Flags: [], env: {} });
    expect(unset.arenaMax).toBeNull();
    expect(unset.threadArenas).toBeGreaterThan(2);
  });

  it("start the backend with its small young generation", async () => {
    const backend = await runProbe(SERVICE_RUNTIME.backend);
    expect(backend.execArgv).toEqual(["--max-semi-space-size=4"]);
  });

  it("leave the user's own malloc setting in place", async () => {
    const gateway = await runProbe(SERVICE_RUNTIME.gateway, { MALLOC_ARENA_MAX: "4" });
    expect(gateway.arenaMax).toBe("4");
  });
});
