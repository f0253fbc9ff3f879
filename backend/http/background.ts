/**
 * Work a request starts but does not wait for: the answer goes out first, so its timing and content
 * cannot depend on the work (resend-verification and forgot-password reveal nothing that way).
 * Failures are logged, never thrown; shutdown and tests wait for what is still running.
 */
import type { Logger } from "../../shared/node/logging.ts";

export interface BackgroundTasks {
  run(log: Logger, what: string, task: () => Promise<void>): void;
  /** Resolves once every task started so far has finished. */
  settled(): Promise<void>;
}

export function createBackgroundTasks(): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(log, what, task) {
      const done = task()
        .catch((error: unknown) => log.error({ err: error }, `${what} failed`))
        .finally(() => running.delete(done));
      running.add(done);
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
