/**
 * The Firebase Auth emulator (firebase-tools) as a child process, plus REST helpers to create and
 * sign in users on it. Each emulator gets its own temporary config with free ports for auth, hub,
 * logging and eventarc, so several can run beside `npm start`. Runs offline with a demo- project.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { claimPort } from "./ports.ts";

export interface FirebaseEmulatorOptions {
  /** Auth emulator port; a free one when omitted. */
  port?: number;
  /** Must start with "demo-" to stay offline. Default "demo-argus". */
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

export interface EmulatorUser {
  email: string;
  password: string;
  displayName?: string;
  emailVerified?: boolean;
}

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const OUTPUT_TAIL_CHARS = 4000;

function firebaseCli(): string {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("firebase-tools/package.json");
  return path.join(path.dirname(packageJson), "lib/bin/firebase.js");
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Kills the emulator's whole process group (the CLI spawns helpers of its own). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || !isRunning(child)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
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

export async function startFirebaseEmulator(
  options: FirebaseEmulatorOptions = {},
): Promise<RunningFirebaseEmulator> {
  const projectId = options.projectId ?? "demo-argus";
  // A taken auth port would let the readiness check reach someone else's emulator.
  const authPort = await claimPort(options.port ?? 0).catch(() => {
    throw new Error(`Firebase emulator: port ${options.port} is already in use`);
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

  // Never leave an emulator behind when the parent exits without calling stop().
  const killOnExit = () => killGroup(child, "SIGKILL");
  process.once("exit", killOnExit);

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      process.off("exit", killOnExit);
      if (isRunning(child)) {
        const exited = once(child, "exit");
        killGroup(child, "SIGTERM");
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
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

async function emulatorRequest<T>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as T & { error?: { message?: string } };
  if (!response.ok) {
    throw new Error(`Firebase emulator ${new URL(url).pathname}: ${json.error?.message ?? response.status}`);
  }
  return json;
}

/** Creates a user through the emulator's admin API ("Bearer owner"); returns its uid. */
export async function createEmulatorUser(
  host: string,
  projectId: string,
  user: EmulatorUser,
): Promise<{ uid: string }> {
  const created = await emulatorRequest<{ localId: string }>(
    `http://${host}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts`,
    {
      email: user.email,
      password: user.password,
      displayName: user.displayName,
      emailVerified: user.emailVerified ?? false,
    },
    { authorization: "Bearer owner" },
  );
  return { uid: created.localId };
}

/** Signs in with e-mail and password, as the browser SDK would; returns the Firebase ID token. */
export async function signInOnEmulator(host: string, email: string, password: string): Promise<string> {
  const signedIn = await emulatorRequest<{ idToken: string }>(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any`,
    { email, password, returnSecureToken: true },
  );
  return signedIn.idToken;
}

/** Changes a user through the emulator's admin API (e.g. disable it, or mark its e-mail verified). */
export async function updateEmulatorUser(
  host: string,
  projectId: string,
  uid: string,
  changes: { displayName?: string; emailVerified?: boolean; disabled?: boolean },
): Promise<void> {
  await emulatorRequest(
    `http://${host}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:update`,
    {
      localId: uid,
      displayName: changes.displayName,
      emailVerified: changes.emailVerified,
      disableUser: changes.disabled,
    },
    { authorization: "Bearer owner" },
  );
}

export async function deleteEmulatorUser(host: string, projectId: string, uid: string): Promise<void> {
  await emulatorRequest(
    `http://${host}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:delete`,
    { localId: uid },
    { authorization: "Bearer owner" },
  );
}

/**
 * Signs in through the emulator's fake GitHub provider, as its sign-in popup would; creates the
 * user on first use. Returns the Firebase uid and ID token (sign_in_provider "github.com").
 */
export async function signInWithGitHubOnEmulator(
  host: string,
  profile: { githubId: string; email: string; name?: string; emailVerified?: boolean },
): Promise<{ uid: string; idToken: string }> {
  const claims = {
    sub: profile.githubId,
    email: profile.email,
    email_verified: profile.emailVerified ?? false,
    name: profile.name,
  };
  const signedIn = await emulatorRequest<{ localId: string; idToken: string }>(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=any`,
    {
      postBody: new URLSearchParams({
        providerId: "github.com",
        id_token: JSON.stringify(claims),
      }).toString(),
      requestUri: "http://localhost",
      returnSecureToken: true,
    },
  );
  return { uid: signedIn.localId, idToken: signedIn.idToken };
}
