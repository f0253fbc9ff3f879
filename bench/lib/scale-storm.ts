/**
 * The webhook storm of `npm run bench:scale` and tests/integration/scale-storm.test.ts: signed
 * `pull_request` deliveries with redeliveries, out-of-order and reopened events and duplicates sent
 * to two backends at once, an optional SIGKILL half-way, and the invariants checked after it
 * (docs/decisions/042-scale-out.md).
 */
import { randomUUID } from "node:crypto";
import { Webhooks } from "@octokit/webhooks";
import pg from "pg";
import { API_PATHS } from "../../shared/contract/common.ts";
import {
  BASE,
  FULL_NAME,
  headOf,
  INSTALLATION,
  REPOSITORY,
  type ScaleProcess,
  type ScaleStack,
  STORM_WEBHOOK_SECRET,
} from "./scale-stack.ts";

/** One signed delivery: GitHub's id for it, the event and where it is sent. */
export interface Delivery {
  id: string;
  action: "opened" | "synchronize" | "reopened";
  pullRequest: number;
  head: string;
}

export interface StormItem {
  delivery: Delivery;
  /** Sent to two backends at once: GitHub's retry of a delivery whose answer was lost. */
  concurrent: boolean;
}

/**
 * Four deliveries per pull request, in three rounds that keep each PR's own order and mix the PRs:
 * opened at its first head and synchronize at its second (the even PRs' synchronize first, as
 * deliveries may arrive out of order; synchronize sent to two backends at once), then a redelivery
 * of opened, or for every third PR a reopened at the second head.
 */
export function stormRounds(pullRequests: number): StormItem[][] {
  const rounds: StormItem[][] = [[], [], []];
  for (let pr = 1; pr <= pullRequests; pr++) {
    const opened: Delivery = { id: randomUUID(), action: "opened", pullRequest: pr, head: headOf(pr, 1) };
    const pushed: Delivery = {
      id: randomUUID(),
      action: "synchronize",
      pullRequest: pr,
      head: headOf(pr, 2),
    };
    const last: Delivery =
      pr % 3 === 0
        ? { id: randomUUID(), action: "reopened", pullRequest: pr, head: headOf(pr, 2) }
        : { ...opened };
    const [first, second] = pr % 2 === 0 ? [pushed, opened] : [opened, pushed];
    rounds[0]?.push({ delivery: first, concurrent: first === pushed });
    rounds[1]?.push({ delivery: second, concurrent: second === pushed });
    rounds[2]?.push({ delivery: last, concurrent: false });
  }
  // Each round in another order than the PRs' numbers (a fixed permutation: runs compare).
  return rounds.map((round) =>
    round
      .map((item, i) => ({ item, key: (i * 37) % round.length }))
      .sort((a, b) => a.key - b.key)
      .map(({ item }) => item),
  );
}

const webhooks = new Webhooks({ secret: STORM_WEBHOOK_SECRET });

/** Sends a delivery to `url` as GitHub does; the status, or 0 when nothing answered. */
export async function sendDelivery(url: string, delivery: Delivery): Promise<number> {
  const body = JSON.stringify({
    action: delivery.action,
    installation: { id: INSTALLATION },
    repository: { id: REPOSITORY, full_name: FULL_NAME },
    pull_request: { number: delivery.pullRequest, head: { sha: delivery.head }, base: { sha: BASE } },
  });
  try {
    const response = await fetch(`${url}${API_PATHS.githubWebhook}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": delivery.id,
        "x-hub-signature-256": await webhooks.sign(body),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

export interface StormOptions {
  pullRequests: number;
  /** SIGKILL the second backend once this share of the deliveries is sent (0: never). */
  killAt?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
  deadlineMs: number;
  /** One address for every delivery but those sent to both backends at once (a load balancer). */
  entry?: string;
}

export interface StormResult {
  deliveries: number;
  /** Deliveries answered 2xx on the first try; the rest were sent again (GitHub redelivers). */
  acceptedFirstTry: number;
  /** Deliveries never accepted by any entry point. */
  lost: number;
  reviews: number;
  /** From the first delivery to the last review posted. */
  elapsedMs: number;
  reviewsPerMinute: number;
  runs: Record<string, number>;
  /** Why runs failed, with how many. */
  failures: Record<string, number>;
  /** Every invariant that does not hold, one line each; empty when the storm ended right. */
  problems: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (process: ScaleProcess) => process.child.exitCode === null && process.child.signalCode === null;

/** Sends the storm through the gateways (or the backends when there are none), round-robin. */
export async function runStorm(stack: ScaleStack, options: StormOptions): Promise<StormResult> {
  const rounds = stormRounds(options.pullRequests);
  const total = rounds.reduce(
    (sum, round) => sum + round.length + round.filter((item) => item.concurrent).length,
    0,
  );
  const dead = new Set<string>();
  const entries = (): string[] =>
    options.entry
      ? [options.entry]
      : (stack.gateways.length ? stack.gateways : stack.backends)
          .filter((entry) => alive(entry) && !dead.has(entry.url))
          .map((entry) => entry.url);
  let next = 0;
  let sent = 0;
  let acceptedFirstTry = 0;
  let lost = 0;
  const started = Date.now();
  const killAfter = options.killAt ? Math.floor(total * options.killAt) : Number.POSITIVE_INFINITY;

  const maybeKill = () => {
    const victim = stack.backends[1];
    if (sent >= killAfter && victim && alive(victim)) {
      stack.kill(victim);
      // Its gateway has no backend left: GitHub's redeliveries land on the others.
      for (const gateway of stack.gateways)
        if (stack.backends.indexOf(victim) === stack.gateways.indexOf(gateway) % stack.backends.length)
          dead.add(gateway.url);
      dead.add(victim.url);
    }
  };

  /** Until some entry point takes it, as GitHub redelivers what failed. */
  async function deliver(delivery: Delivery, first: string | undefined): Promise<void> {
    let entry = first;
    for (let attempt = 0; attempt < 20; attempt++) {
      const candidates = entries();
      entry = entry && candidates.includes(entry) ? entry : candidates[next++ % candidates.length];
      if (!entry) break;
      const status = await sendDelivery(entry, delivery);
      if (status >= 200 && status < 300) {
        if (attempt === 0) acceptedFirstTry += 1;
        return;
      }
      entry = undefined;
      await sleep(200);
    }
    lost += 1;
  }

  for (const round of rounds) {
    let index = 0;
    const worker = async () => {
      while (index < round.length) {
        const item = round[index++] as StormItem;
        if (item.concurrent && stack.backends.filter(alive).length > 1) {
          // One event delivered to two backends at once, straight past the gateways.
          const [a, b] = stack.backends.filter(alive);
          sent += 2;
          await Promise.all([deliver(item.delivery, a?.url), deliver(item.delivery, b?.url)]);
        } else {
          sent += item.concurrent ? 2 : 1;
          if (item.concurrent)
            await Promise.all([deliver(item.delivery, undefined), deliver(item.delivery, undefined)]);
          else await deliver(item.delivery, undefined);
        }
        maybeKill();
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  }

  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const latestHeadsReviewed = () =>
    Array.from({ length: options.pullRequests }, (_, i) => i + 1).every((pr) =>
      stack.github.pulls.reviews.some(
        (review) => review.pullRequest === pr && review.commitId === headOf(pr, 2),
      ),
    );
  const pending = async () =>
    Number(
      (await db.query("select count(*)::int as n from review_runs where status in ('queued', 'running')"))
        .rows[0]?.n,
    );
  let lastReviewAt = Date.now();
  let seen = 0;
  while (Date.now() - started < options.deadlineMs) {
    if (stack.github.pulls.reviews.length !== seen) {
      seen = stack.github.pulls.reviews.length;
      lastReviewAt = Date.now();
    }
    if (latestHeadsReviewed() && (await pending()) === 0) break;
    await sleep(250);
  }
  const runRows = await db.query<{ status: string; n: number }>(
    "select status, count(*)::int as n from review_runs group by status",
  );
  const failureRows = await db.query<{ reason: string | null; n: number }>(
    "select reason, count(*)::int as n from review_runs where status = 'failed' group by reason",
  );
  const stillPending = await pending();
  await db.end();
  const runs = Object.fromEntries(runRows.rows.map((row) => [row.status, row.n]));

  const problems: string[] = [];
  const reviews = stack.github.pulls.reviews;
  for (let pr = 1; pr <= options.pullRequests; pr++) {
    const ofPr = reviews.filter((review) => review.pullRequest === pr);
    const atLatest = ofPr.filter((review) => review.commitId === headOf(pr, 2)).length;
    if (atLatest !== 1) problems.push(`PR ${pr}: ${atLatest} reviews at its latest head`);
    const perCommit = new Map<string, number>();
    for (const review of ofPr) perCommit.set(review.commitId, (perCommit.get(review.commitId) ?? 0) + 1);
    for (const [commit, count] of perCommit)
      if (count > 1) problems.push(`PR ${pr}: ${count} reviews of ${commit.slice(0, 8)}`);
    const comments = ofPr.flatMap((review) => review.comments.map((c) => `${c.path}:${c.line}:${c.body}`));
    if (new Set(comments).size !== comments.length) problems.push(`PR ${pr}: a comment posted twice`);
  }
  if (lost > 0) problems.push(`${lost} deliveries never accepted`);
  if (stillPending > 0) problems.push(`${stillPending} runs still queued or running at the deadline`);
  const elapsedMs = lastReviewAt - started;
  return {
    deliveries: total,
    acceptedFirstTry,
    lost,
    reviews: reviews.length,
    elapsedMs,
    reviewsPerMinute: reviews.length / (elapsedMs / 60_000),
    runs,
    failures: Object.fromEntries(failureRows.rows.map((row) => [row.reason ?? "(none)", row.n])),
    problems,
  };
}
