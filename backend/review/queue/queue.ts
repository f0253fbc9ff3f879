/**
 * The review queue: durable jobs in the database, one per queued review run, on pg-boss
 * (decision 014). A job is sent inside the transaction that records the webhook delivery and the
 * run, so an event is either fully taken in or not at all. The queue is `stately` and keyed by
 * pull request: at most one job of a pull request waits and one is active, across every worker
 * and process. Embedded PGlite runs one worker; Postgres runs `workers` of them.
 */
import { type Db as BossDatabase, fromKysely, fromPglite, PgBoss } from "pg-boss";
import type { DatabaseTarget } from "../../config.ts";
import { type Db, embeddedClient } from "../../db/database.ts";

/** What a job carries: the run is the source of truth for everything else (its latest head). */
export interface QueuedReview {
  runId: string;
  projectId: string;
  pullRequest: number;
}

export type ReviewJobHandler = (job: QueuedReview, attempt: number) => Promise<void>;

export interface ReviewQueue {
  /** Sends the run's job in `trx`; throws if the queue refuses it (a job of this pull request already waits). */
  enqueue(trx: Db, job: QueuedReview): Promise<void>;
  /**
   * Starts the workers. A job whose handler throws, or whose worker dies, is retried: the handler
   * must be idempotent. `attempt` counts from 0.
   */
  start(handler: ReviewJobHandler, options: { workers: number }): Promise<void>;
  /** Stops the workers, waiting up to `QueueOptions.stopTimeoutSeconds` for running handlers. */
  stop(): Promise<void>;
}

export interface QueueOptions {
  /**
   * A worker that stops beating for this long (a crash, a killed process) gives its job back to
   * be retried. pg-boss's floor is 10.
   */
  heartbeatSeconds: number;
  /** The longest a job may stay active before it is retried. */
  expireInSeconds: number;
  /** How often idle workers look for jobs. */
  pollingIntervalSeconds: number;
  /** How often jobs whose worker went quiet or ran too long are looked for. */
  superviseIntervalSeconds: number;
  /**
   * How long stop() waits for running handlers; then their jobs are failed and so retried at once
   * by the next start. Short: the process manager kills a backend that takes long to stop (Docker
   * after 10 s), and then the job waits for its heartbeat to lapse instead.
   */
  stopTimeoutSeconds: number;
}

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = {
  heartbeatSeconds: 30,
  expireInSeconds: 30 * 60,
  pollingIntervalSeconds: 1,
  superviseIntervalSeconds: 10,
  stopTimeoutSeconds: 5,
};

const QUEUE_NAME = "review";
/** Attempts after the first for a job whose handler threw or whose worker died. */
const RETRY_LIMIT = 3;

const singletonKey = (job: QueuedReview) => `${job.projectId}#${job.pullRequest}`;

/**
 * pg-boss on embedded PGlite: its statements go straight to the PGlite instance (pg-boss's own
 * adapter, which runs multi-statement blocks with exec), but each one holds our driver's single
 * connection first, like any Kysely query, so none slips into a transaction another holder has open.
 */
function embeddedDatabase(db: Db): BossDatabase {
  const client = embeddedClient(db);
  if (!client) throw new Error("The database is not embedded PGlite");
  const direct = fromPglite(client);
  return {
    executeSql: (text, values) => db.connection().execute(() => direct.executeSql(text, values)),
  };
}

export async function openReviewQueue(
  db: Db,
  target: DatabaseTarget,
  options: QueueOptions = DEFAULT_QUEUE_OPTIONS,
  onError: (error: Error) => void = () => {},
): Promise<ReviewQueue> {
  const embedded = target.kind === "pglite";
  const boss = new PgBoss({
    ...(target.kind === "postgres"
      ? { connectionString: target.url }
      : { db: embeddedDatabase(db), backend: "pglite" as const }),
    schedule: false,
    superviseIntervalSeconds: options.superviseIntervalSeconds,
    monitorIntervalSeconds: options.superviseIntervalSeconds,
    // The instance registry is for dashboards we do not run.
    registerInstance: false,
  });
  boss.on("error", onError);
  const settings = {
    retryLimit: RETRY_LIMIT,
    retryBackoff: true,
    heartbeatSeconds: options.heartbeatSeconds,
    expireInSeconds: options.expireInSeconds,
  };
  try {
    await boss.start();
    // createQueue leaves an existing queue as it is; updateQueue applies today's settings to it.
    await boss.createQueue(QUEUE_NAME, { policy: "stately", ...settings });
    await boss.updateQueue(QUEUE_NAME, settings);
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => {});
    throw error;
  }
  return {
    async enqueue(trx, job) {
      const id = await boss.send(
        QUEUE_NAME,
        { ...job },
        { singletonKey: singletonKey(job), db: fromKysely(trx) },
      );
      if (id === null) throw new Error(`A review job of ${singletonKey(job)} is already waiting`);
    },
    async start(handler, { workers }) {
      // One session: a second worker on PGlite would only wait for the first.
      const count = embedded ? 1 : workers;
      for (let n = 0; n < count; n++) {
        let workerId = "";
        workerId = await boss.work<QueuedReview>(
          QUEUE_NAME,
          { pollingIntervalSeconds: options.pollingIntervalSeconds },
          async ([job]) => {
            if (!job) return;
            await handler(job.data, job.retryCount);
            // The worker looks for its next job at once, not after its polling interval: pull
            // requests opened together are reviewed at the pipeline's pace, not one per interval.
            boss.notifyWorker(workerId);
          },
        );
      }
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: options.stopTimeoutSeconds * 1000 });
    },
  };
}
