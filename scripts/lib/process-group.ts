/**
 * The launcher's children (the emulator and the services) each run in a process group of their own
 * (`detached`), so that stopping one also stops whatever it spawned. Detached, they would outlive a
 * launcher that exits without stopping them (Ctrl-C while the stack is still starting, a crash),
 * holding their ports; so each is sent a signal when the launcher exits, until it is stopped.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || !isRunning(child)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Sends `signal` to the child's group when this process exits (an exit runs no asynchronous work,
 * so this cannot wait for it to stop). Returns the function that takes the guard back.
 */
export function killGroupOnExit(child: ChildProcess, signal: NodeJS.Signals): () => void {
  const kill = () => killGroup(child, signal);
  process.once("exit", kill);
  return () => process.off("exit", kill);
}

/** SIGTERM to the group, SIGKILL if the child has not exited `timeoutMs` later; resolves at its exit. */
export async function stopGroup(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.pid === undefined || !isRunning(child)) return;
  const exited = once(child, "exit");
  killGroup(child, "SIGTERM");
  const timer = setTimeout(() => killGroup(child, "SIGKILL"), timeoutMs);
  await exited;
  clearTimeout(timer);
}
