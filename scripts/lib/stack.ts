/**
 * Starts the whole product on one machine: the Firebase Auth emulator, the backend and the gateway,
 * each as its own process, and stops them in reverse order. Used by `npm start` and the browser tests.
 * The services run in production mode (development with `dev`) and in local mode, which lets them
 * use the emulator: docs/decisions/005-production-mode-and-local-mode.md.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { startFirebaseEmulator } from "./firebase-emulator.ts";
import { logFormatter } from "./log-format.ts";
import { claimPort, PortTakenError } from "./ports.ts";
import { killGroupOnExit, stopGroup } from "./process-group.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = process.execPath;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
/** How a service's process is started besides its script: V8 flags, and variables for the C library. */
export interface ServiceRuntime {
  v8Flags: readonly string[];
  /** Defaults the user's own environment may override. */
  env: Readonly<Record<string, string>>;
}

/**
 * The services' memory settings (docs/performance.md, docs/decisions/050-gateway-memory.md). The
 * Dockerfile starts its images the same way; tests/integration/dockerfile.test.ts holds it to these.
 * - V8's heap sizing: a small young generation, and (gateway) an old generation that grows to twice
 *   what a full collection leaves live instead of up to four times. With V8's defaults the heaps grew
 *   for the garbage of renders and short-lived JSON answers and kept 90-200 MB more resident.
 * - V8's memory reducer (the collection that gives an idle heap back) checks every 2 s, not 8, whether
 *   the gateway has gone idle: after a burst its estimate of the allocation rate decays only as time
 *   passes, and checking every 8 s it collected within 15 s of the burst in 8 runs of 19 (2 s: 6 of 8).
 * - V8's gc exposed, for the gateway's own collection once it has gone idle (server/idle-collection.ts),
 *   which the reducer alone does not make sure of.
 * - Two glibc malloc arenas for the gateway instead of up to eight per core: each thread that
 *   allocates (libuv's pool compressing answers, V8's helper threads) otherwise got an arena of its
 *   own, and ten arenas kept about 35 MB more resident after load than two.
 */
export const SERVICE_RUNTIME = {
  gateway: {
    v8Flags: [
      "--max-semi-space-size=4",
      "--heap-growing-percent=100",
      "--gc-memory-reducer-start-delay-ms=2000",
      "--expose-gc",
    ],
    env: { MALLOC_ARENA_MAX: "2" },
  },
  backend: { v8Flags: ["--max-semi-space-size=4"], env: {} },
} as const satisfies Record<string, ServiceRuntime>;

/** The command line and environment of a service's process. */
export function serviceProcess(
  script: string,
  runtime: ServiceRuntime,
  env: { inherited: NodeJS.ProcessEnv; fixed: Record<string, string> },
  args: readonly string[] = [],
): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  return {
    command: NODE,
    args: [...runtime.v8Flags, script, ...args],
    env: { ...runtime.env, ...env.inherited, ...env.fixed },
  };
}

export interface StackOptions {
  gatewayPort: number;
  backendPort: number;
  emulatorPort?: number;
  dataDir: string;
  /** Vite dev server with hot reload instead of the production bundle. */
  dev?: boolean;
  /** Where the services' output goes: the terminal, or a file (tests). */
  logFile?: string;
  /** Extra variables for the services; they win over the mode chosen here (NODE_ENV=test). */
  env?: Record<string, string>;
}

/** A service that stopped on its own, and how. */
export interface ServiceExit {
  service: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningStack {
  gatewayUrl: string;
  backendUrl: string;
  emulatorHost: string;
  projectId: string;
  /** The services' process ids (the benchmark reads their memory). */
  pids: { backend: number; gateway: number };
  stop(): Promise<void>;
  /**
   * Stops the backend alone, leaving the gateway and the emulator running: for tests of what users
   * see when the backend cannot be reached. `stop()` still stops the rest.
   */
  stopBackend(): Promise<void>;
  /**
   * Settles when a service exits that nobody stopped (a crash, a kill): `npm start` then stops the
   * rest instead of serving half a product.
   */
  serviceExited: Promise<ServiceExit>;
}

interface Service {
  name: string;
  child: ChildProcess;
  /** Takes back the signal the service gets if this process exits without stopping it. */
  forgetOnExit(): void;
  /** Set once this process stops it: its exit is then expected. */
  stopping: boolean;
}

async function waitUntilAnswering(url: string, service: Service): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited = false;
  service.child.once("exit", () => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited)
      throw new Error(`${service.name} exited before it was ready (exit code ${service.child.exitCode})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${service.name} did not answer at ${url} within ${READY_TIMEOUT_MS / 1000}s`);
}

/** Each service runs in its own process group, so stopping it also stops anything it spawned. */
async function stopService(service: Service): Promise<void> {
  service.stopping = true;
  service.forgetOnExit();
  await stopGroup(service.child, STOP_TIMEOUT_MS);
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  // A port already taken (by another `npm start`, say) would let the readiness checks below reach
  // that other server and call this stack ready while its own service failed to listen.
  for (const [name, port] of [
    ["backend", options.backendPort],
    ["gateway", options.gatewayPort],
  ] as const) {
    await claimPort(port).catch(() => {
      throw new PortTakenError(name, port);
    });
  }
  // A log file (tests, benchmarks) is the services' own standard output: they append their JSON lines
  // to it themselves. Relayed through a pipe, every line also cost this process a read and a write,
  // CPU taken from the services on a loaded machine (docs/performance.md, tenth round).
  const logFd = options.logFile ? openSync(options.logFile, "a") : undefined;
  const services: Service[] = [];
  let reportExit: (exit: ServiceExit) => void = () => {};
  const serviceExited = new Promise<ServiceExit>((resolve) => {
    reportExit = resolve;
  });
  const mode = { NODE_ENV: options.dev ? "development" : "production", LOCAL_MODE: "true" };
  const launch = (
    name: string,
    script: string,
    runtime: ServiceRuntime,
    env: Record<string, string>,
    args: string[] = [],
  ): Service => {
    const started = serviceProcess(
      script,
      runtime,
      {
        inherited: process.env,
        fixed: { ...mode, ...options.env, ...env },
      },
      args,
    );
    const child = spawn(started.command, started.args, {
      cwd: ROOT,
      env: started.env,
      stdio: logFd === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", logFd, logFd],
      detached: true,
    });
    // A terminal gets lines a person can read.
    for (const stream of [child.stdout, child.stderr]) {
      stream?.pipe(logFormatter(name)).pipe(process.stdout, { end: false });
    }
    // SIGTERM, not SIGKILL: a service stopped that way still closes its database cleanly.
    const service = { name, child, forgetOnExit: killGroupOnExit(child, "SIGTERM"), stopping: false };
    child.once("exit", (code, signal) => {
      if (!service.stopping) reportExit({ service: name, code, signal });
    });
    services.push(service);
    return service;
  };

  const emulator = await startFirebaseEmulator({ port: options.emulatorPort, logFile: options.logFile });
  const stop = async () => {
    for (const service of [...services].reverse()) await stopService(service);
    await emulator.stop();
    if (logFd !== undefined) closeSync(logFd);
  };

  try {
    const identity = {
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      FIREBASE_PROJECT_ID: emulator.projectId,
    };
    const backendUrl = `http://127.0.0.1:${options.backendPort}`;
    const gatewayUrl = `http://127.0.0.1:${options.gatewayPort}`;
    // The URL printed to the user is the one browsers use (and e-mails link to); plain http is
    // fine on loopback.
    const publicOrigin = { PUBLIC_ORIGIN: gatewayUrl, ALLOW_HTTP_ORIGIN: "true" };
    const backend = launch("backend", "backend/index.ts", SERVICE_RUNTIME.backend, {
      ...identity,
      ...publicOrigin,
      BACKEND_HOST: "127.0.0.1",
      BACKEND_PORT: String(options.backendPort),
      DATA_DIR: options.dataDir,
    });
    await waitUntilAnswering(`${backendUrl}/healthz`, backend);

    const gateway = launch(
      "gateway",
      "server/index.ts",
      SERVICE_RUNTIME.gateway,
      {
        ...identity,
        ...publicOrigin,
        HOST: "127.0.0.1",
        PORT: String(options.gatewayPort),
        BACKEND_URL: backendUrl,
      },
      options.dev ? ["--dev"] : [],
    );
    await waitUntilAnswering(`${gatewayUrl}/healthz`, gateway);
    return {
      gatewayUrl,
      backendUrl,
      emulatorHost: emulator.host,
      projectId: emulator.projectId,
      pids: { backend: backend.child.pid ?? 0, gateway: gateway.child.pid ?? 0 },
      stop,
      stopBackend: () => stopService(backend),
      serviceExited,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The stack on free ports, its data and its services' log in `workDir` (tests and benchmarks); a
 * start that fails prints the log's tail, since the services' output goes nowhere else.
 */
export async function startStackIn(workDir: string, env: Record<string, string>): Promise<RunningStack> {
  const logFile = path.join(workDir, "services.log");
  try {
    return await startStack({
      gatewayPort: await claimPort(),
      backendPort: await claimPort(),
      emulatorPort: await claimPort(),
      dataDir: path.join(workDir, "data"),
      logFile,
      env,
    });
  } catch (error) {
    console.error((await readFile(logFile, "utf8").catch(() => "")).slice(-5000));
    throw error;
  }
}
