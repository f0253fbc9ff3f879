/**
 * The Firebase Auth emulator (firebase-tools) as a child process, for `npm start` and the tests.
 * Each emulator gets its own temporary config with free ports for auth, hub, logging and eventarc,
 * so several can run beside `npm start`. Runs offline with a demo- project. Test helpers that act on
 * its users are in tests/support/firebase-emulator-users.ts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEMO_PROJECT_ID } from "../../shared/node/env.ts";
import { claimPort, PortTakenError, retryOnPortRace } from "./ports.ts";
import { isRunning, killGroupOnExit, stopGroup } from "./process-group.ts";

export interface FirebaseEmulatorOptions {
  /** Auth emulator port; a free one when omitted. */
  port?: number;
  /** Must start with "demo-" to stay offline. Default DEMO_PROJECT_ID. */
  projectId?: string;
  /** Also append the emulator's output to this file (its tail is shown anyway if start fails). */
  logFile?: string;
}

export interface RunningFirebaseEmulator {
  /** "127.0.0.1:PORT", the value for FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  projectId: string;
  stop(): Promise<void>;
}

/** The emulator port `npm start` runs on: FIREBASE_AUTH_EMULATOR_PORT (from .env too), else 9099. */
export function configuredEmulatorPort(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.FIREBASE_AUTH_EMULATOR_PORT ?? 9099);
}

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const OUTPUT_TAIL_CHARS = 4000;

function firebaseCli(): string {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("firebase-tools/package.json");
  return path.join(path.dirname(packageJson), "lib/bin/firebase.js");
}

async function waitUntilReady(host: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!isRunning(child)) {
      throw new Error(`Firebase emulator exited before it was ready:\n${output()}`);
    }
    try {
      await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(
    `Firebase emulator did not answer at ${host} within ${READY_TIMEOUT_MS / 1000}s:\n${output()}`,
  );
}

/** What the CLI says when one of the ports of its config was taken before it could bind it. */
const PORT_TAKEN = /port taken|is not open on/i;

export function startFirebaseEmulator(
  options: FirebaseEmulatorOptions = {},
): Promise<RunningFirebaseEmulator> {
  return retryOnPortRace(
    () => startOnce(options),
    (error) => error instanceof Error && PORT_TAKEN.test(error.message),
  );
}

async function startOnce(options: FirebaseEmulatorOptions): Promise<RunningFirebaseEmulator> {
  const projectId = options.projectId ?? DEMO_PROJECT_ID;
  // A taken auth port would let the readiness check reach someone else's emulator.
  const authPort = await claimPort(options.port ?? 0).catch(() => {
    throw new PortTakenError("Firebase emulator", options.port ?? 0);
  });
  const [hubPort, loggingPort, eventarcPort] = await Promise.all([claimPort(0), claimPort(0), claimPort(0)]);
  const host = `127.0.0.1:${authPort}`;
  // The CLI writes firebase-debug.log into its working directory: keep that out of the repository.
  const workDir = await mkdtemp(path.join(tmpdir(), "argus-firebase-"));
  const configFile = path.join(workDir, "firebase.json");
  await writeFile(
    configFile,
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port: authPort },
        hub: { host: "127.0.0.1", port: hubPort },
        logging: { host: "127.0.0.1", port: loggingPort },
        eventarc: { host: "127.0.0.1", port: eventarcPort },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );

  const child = spawn(
    process.execPath,
    [firebaseCli(), "emulators:start", "--only", "auth", "--project", projectId, "--config", configFile],
    {
      cwd: workDir,
      env: { ...process.env, NO_UPDATE_NOTIFIER: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let captured = "";
  const logFile = options.logFile ? createWriteStream(options.logFile, { flags: "a" }) : undefined;
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      logFile?.write(chunk);
      captured = (captured + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
    });
  }

  const forgetOnExit = killGroupOnExit(child, "SIGKILL");

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      forgetOnExit();
      await stopGroup(child, STOP_TIMEOUT_MS);
      logFile?.end();
      await rm(workDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  try {
    await waitUntilReady(host, child, () => captured);
  } catch (error) {
    await stop();
    throw error;
  }
  return { host, projectId, stop };
}
