/**
 * An organisation of a given size written through the backend's own data layer (its Kysely
 * database and table types), in batched inserts: repositories, contributors (some holding seats,
 * the subscription counting them), review runs over those repositories with their pull requests and
 * decision logs (one in ten reviewed in shadow mode). For bench:org and the query-plan test.
 */
import type { Db } from "../../backend/db/database.ts";
import { PLAN_VALUES } from "../../shared/constants.ts";

export interface OrgSize {
  repositories: number;
  contributors: number;
  /** Contributors holding a seat; the subscription's seats. */
  seats: number;
  runs: number;
}

export const SMALL_ORG: OrgSize = { repositories: 10, contributors: 20, seats: 10, runs: 50 };
export const LARGE_ORG: OrgSize = { repositories: 1000, contributors: 5000, seats: 800, runs: 20_000 };

const BATCH = 1000;
const SHADOW_EVERY = 10;
const FIRST_NAMES = [
  "Ada",
  "Grace",
  "Linus",
  "Margaret",
  "Ken",
  "Barbara",
  "Dennis",
  "Frances",
  "Alan",
  "Radia",
];
const LAST_NAMES = ["Lovelace", "Hopper", "Torvalds", "Hamilton", "Thompson", "Liskov", "Ritchie", "Allen"];

async function inBatches<T>(rows: readonly T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) await insert(rows.slice(start, start + BATCH));
}

const padded = (n: number, width: number) => String(n).padStart(width, "0");

/** Seeds `orgId` (which exists) with `size`; `label` keeps names apart between organisations. */
export async function seedOrganisation(db: Db, orgId: string, label: string, size: OrgSize): Promise<void> {
  const projects = Array.from({ length: size.repositories }, (_, i) => {
    const name = `${label}-repository-${padded(i + 1, 4)}`;
    return {
      org_id: orgId,
      name,
      integration_key: `${label}-installation`,
      integration_name: "github",
      integration_type: "git",
      external_link: `https://github.com/${label}/${name}`,
      external_id: `${label}-${i + 1}`,
      active: true,
      webhook_active: i % 3 !== 0,
      properties: JSON.stringify({
        full_name: `${label}/${name}`,
        private: i % 2 === 0,
        description: i % 4 === 0 ? null : `Service ${i + 1} of ${label}`,
        default_branch: "main",
        fork: i % 7 === 0,
      }),
    };
  });
  const projectIds: string[] = [];
  await inBatches(projects, async (batch) => {
    const rows = await db.insertInto("projects").values(batch).returning("id").execute();
    projectIds.push(...rows.map((row) => row.id));
  });

  const now = Date.now();
  const contributors = Array.from({ length: size.contributors }, (_, i) => ({
    org_id: orgId,
    platform_type: "github",
    platform_id: `${label}-dev-${padded(i + 1, 5)}`,
    name: `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[i % LAST_NAMES.length]} ${i + 1}`,
    email: i % 2 === 0 ? `dev${i + 1}@${label}.example` : null,
    avatar_url: null,
    last_git_activity: i % 5 === 0 ? null : new Date(now - (i % 90) * 86_400_000),
    seat_id: i < size.seats ? crypto.randomUUID() : null,
    seat_assigned_at: i < size.seats ? new Date(now) : null,
  }));
  await inBatches(contributors, (batch) => db.insertInto("contributors").values(batch).execute());
  await db
    .updateTable("subscriptions")
    .set({
      plan_code: PLAN_VALUES.paid,
      status: "active",
      seats_total: size.seats,
      seats_allocated: size.seats,
      trial_ends_at: null,
      current_period_end: new Date(now + 30 * 86_400_000),
    })
    .where("org_id", "=", orgId)
    .execute();

  // Runs round the repositories, a pull request each per round, an hour apart, the newest now.
  const runs = Array.from({ length: size.runs }, (_, i) => {
    const queuedAt = new Date(now - (size.runs - i) * 3_600_000);
    return {
      org_id: orgId,
      project_id: projectIds[i % projectIds.length] as string,
      pull_request: Math.floor(i / projectIds.length) + 1,
      status: i % 17 === 0 ? ("failed" as const) : ("succeeded" as const),
      trigger: "opened" as const,
      head_sha: padded(i, 40),
      delivery_id: `${label}-delivery-${i}`,
      reason: i % 17 === 0 ? "The code host did not answer" : null,
      findings_total: i % 17 === 0 ? null : i % 4,
      findings_posted: i % 17 === 0 ? null : i % 3 === 0 ? 0 : i % 4,
      queued_at: queuedAt,
      started_at: new Date(queuedAt.getTime() + 1000),
      finished_at: new Date(queuedAt.getTime() + 4000 + (i % 10) * 500),
    };
  });
  await inBatches(runs, async (batch) => {
    const ids = await db.insertInto("review_runs").values(batch).returning(["id", "status"]).execute();
    const decisions = ids.flatMap(({ id, status }, n) => {
      const shadow = (n + 1) % SHADOW_EVERY === 0;
      return [
        { run_id: id, step: "event", outcome: "queued", detail: "{}" },
        { run_id: id, step: "run", outcome: "started", detail: "{}" },
        ...(status === "succeeded"
          ? [{ run_id: id, step: "post", outcome: shadow ? "shadow" : "posted", detail: "{}" }]
          : []),
        { run_id: id, step: "run", outcome: status, detail: "{}" },
      ];
    });
    await inBatches(decisions, (rows) => db.insertInto("review_decisions").values(rows).execute());
  });
  const pulls = new Map<string, { project_id: string; pull_request: number; title: string; url: string }>();
  // The newest run's pull request has no row, as one whose review has not read it yet: a run
  // without a title, which the runs' list shows too.
  for (const run of runs.slice(0, -1)) {
    pulls.set(`${run.project_id}/${run.pull_request}`, {
      project_id: run.project_id,
      pull_request: run.pull_request,
      title: `Change ${run.pull_request} of the service`,
      url: `https://github.com/${label}/pull/${run.pull_request}`,
    });
  }
  await inBatches([...pulls.values()], (batch) =>
    db.insertInto("review_pull_requests").values(batch).execute(),
  );
}
