import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Finding } from "../../../shared/contract/reviews.ts";
import { freshDatabase, TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import { seedProject } from "../../../tests/support/review-queue.ts";
import { type Db, openDatabase } from "../../db/database.ts";
import { migrateToLatest } from "../../db/migrations.ts";
import { feedbackOf, storeFeedback, withoutSuppressed } from "./feedback.ts";
import { createFinding } from "./findings.ts";

const finding = (path: string): Finding =>
  createFinding({
    ruleId: "markers/debugger",
    severity: "major",
    category: "correctness",
    path,
    at: { line: 2, text: "debugger;" },
    message: "A debugger statement.",
    source: "builtin",
  });
const NOISY = finding("src/noisy.ts");
const USEFUL = finding("src/useful.ts");

describe.each(TEST_DATABASE_KINDS)("finding feedback storage on %s", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let projectId: string;
  let otherProjectId: string;

  beforeEach(async () => {
    const fresh = await freshDatabase(kind);
    drop = fresh.drop;
    db = await openDatabase(fresh.target);
    await migrateToLatest(db);
    ({ projectId } = await seedProject(db));
    ({ projectId: otherProjectId } = await seedProject(db));
  });
  afterEach(async () => {
    await db.destroy();
    await drop();
  });

  const stored = async (project = projectId) =>
    feedbackOf(db, project, [NOISY.fingerprint, USEFUL.fingerprint]);
  const suppressedAt = async () =>
    (
      await db
        .selectFrom("finding_feedback")
        .select("suppressed_at")
        .where("fingerprint", "=", NOISY.fingerprint)
        .executeTakeFirstOrThrow()
    ).suppressed_at;

  it("stores counts per repository and suppresses from the first 👎 on, even once it is taken back", async () => {
    const pr = { projectId, pullRequest: 1 };
    await storeFeedback(
      db,
      pr,
      new Map([
        [NOISY.fingerprint, { thumbsUp: 0, thumbsDown: 0 }],
        [USEFUL.fingerprint, { thumbsUp: 1, thumbsDown: 0 }],
      ]),
    );
    expect(await stored()).toEqual(
      new Map([
        [NOISY.fingerprint, { thumbsUp: 0, thumbsDown: 0, suppressed: false }],
        [USEFUL.fingerprint, { thumbsUp: 1, thumbsDown: 0, suppressed: false }],
      ]),
    );

    await storeFeedback(db, pr, new Map([[NOISY.fingerprint, { thumbsUp: 0, thumbsDown: 2 }]]));
    const first = await suppressedAt();
    expect(first).toBeInstanceOf(Date);
    await storeFeedback(db, pr, new Map([[NOISY.fingerprint, { thumbsUp: 0, thumbsDown: 0 }]]));
    expect((await stored()).get(NOISY.fingerprint)).toEqual({ thumbsUp: 0, thumbsDown: 0, suppressed: true });
    expect(await suppressedAt()).toEqual(first);
    // Another repository is untouched.
    expect(await stored(otherProjectId)).toEqual(new Map());
  });

  it("keeps another pull request's reactions when a fresh one shows none", async () => {
    await storeFeedback(
      db,
      { projectId, pullRequest: 1 },
      new Map([[USEFUL.fingerprint, { thumbsUp: 3, thumbsDown: 0 }]]),
    );
    await storeFeedback(
      db,
      { projectId, pullRequest: 2 },
      new Map([[USEFUL.fingerprint, { thumbsUp: 0, thumbsDown: 0 }]]),
    );
    expect((await stored()).get(USEFUL.fingerprint)).toMatchObject({ thumbsUp: 3 });
    await storeFeedback(
      db,
      { projectId, pullRequest: 2 },
      new Map([[USEFUL.fingerprint, { thumbsUp: 1, thumbsDown: 0 }]]),
    );
    expect((await stored()).get(USEFUL.fingerprint)).toMatchObject({ thumbsUp: 1 });
  });

  it("sets aside the suppressed findings before planning and logs their count", async () => {
    await storeFeedback(
      db,
      { projectId, pullRequest: 1 },
      new Map([[NOISY.fingerprint, { thumbsUp: 0, thumbsDown: 1 }]]),
    );
    const logged: unknown[] = [];
    const log = async (step: string, outcome: string, detail?: Record<string, unknown>) => {
      logged.push({ step, outcome, detail });
    };
    const result = await withoutSuppressed(db, projectId, [NOISY, USEFUL], log);
    expect(result).toEqual({ kept: [USEFUL], suppressed: [{ finding: NOISY, delivery: "suppressed" }] });
    expect(logged).toEqual([
      {
        step: "feedback.suppressed",
        outcome: "suppressed",
        detail: { count: 1, rules: ["markers/debugger"] },
      },
    ]);
    // Another repository posts it.
    const elsewhere = await withoutSuppressed(db, otherProjectId, [NOISY], log);
    expect(elsewhere.kept).toEqual([NOISY]);
    expect(logged).toHaveLength(1);
  });
});
