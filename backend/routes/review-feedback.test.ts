import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FEEDBACK_RULES_LISTED_MAX,
  type Finding,
  type FindingSource,
  REVIEW_FEEDBACK_PATH,
  reviewFeedbackResponseSchema,
} from "../../shared/contract/reviews.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { repositoryWithFindings } from "../../tests/support/reacted-findings.ts";
import { testBackends } from "../../tests/support/test-backend.ts";
import type { Backend } from "../app.ts";

/** A finding a run kept: its rule, its source and its fingerprint (64 hex digits from `digit`). */
type Kept = { ruleId: string; source?: FindingSource; digit: string };
/** A fingerprint's 👍 and 👎 as a run read them from pull request 4. */
type Reaction = [digit: string, thumbsUp: number, thumbsDown: number];

const fingerprint = (digit: string) => digit.repeat(64);

function finding({ ruleId, source = "builtin", digit }: Kept): Finding {
  return {
    ruleId,
    severity: "major",
    path: "src/app.ts",
    line: 3,
    quote: "const x = 1;",
    message: "Something is off here.",
    fingerprint: fingerprint(digit),
    source,
  };
}

describe.each(TEST_DATABASE_KINDS)("the reactions summed on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  beforeAll(async () => {
    backend = await backends.start();
  });
  afterAll(() => backends.stop());

  async function account(name: string) {
    const { token, orgId } = await signedInAccount(backend, name, "github");
    return { auth: { Authorization: `Bearer ${token}` }, orgId };
  }

  /** A repository of the organisation whose one run kept `kept`, with `reactions` read since. */
  async function repository(orgId: string, name: string, kept: Kept[], reactions: Reaction[]) {
    const { projectId, react } = await repositoryWithFindings(backend.db, orgId, name, kept.map(finding));
    const reactTo = (counts: Reaction[]) =>
      react(counts.map(([digit, up, down]) => [fingerprint(digit), up, down]));
    await reactTo(reactions);
    return { projectId, react: reactTo };
  }

  async function summed(auth: Record<string, string>, projectId?: string) {
    const response = await request(backend.app)
      .get(REVIEW_FEEDBACK_PATH)
      .query(projectId ? { projectId } : {})
      .set(auth);
    expect(response.status).toBe(200);
    return v.parse(reviewFeedbackResponseSchema, response.body).data;
  }

  it("sums every repository's reactions, and lists the rules with the most 👎 first", async () => {
    const { auth, orgId } = await account("feedback-sums");
    const web = await repository(
      orgId,
      "web",
      [
        { ruleId: "secrets/github", digit: "a" },
        { ruleId: "markers/debugger", digit: "b" },
        { ruleId: "ai/logic", source: "ai", digit: "c" },
        { ruleId: "markers/debugger", digit: "d" },
      ],
      [
        ["a", 3, 0],
        ["b", 0, 2],
        ["c", 1, 1],
        ["d", 0, 1],
      ],
    );
    await repository(orgId, "api", [{ ruleId: "secrets/github", digit: "a" }], [["a", 1, 0]]);

    expect(await summed(auth)).toEqual({
      findings: 5,
      thumbsUp: 5,
      thumbsDown: 4,
      // A 👎 suppresses its finding in the repository: b, c and d in web.
      suppressed: 3,
      rules: [
        { ruleId: "markers/debugger", source: "builtin", findings: 2, thumbsUp: 0, thumbsDown: 3 },
        { ruleId: "ai/logic", source: "ai", findings: 1, thumbsUp: 1, thumbsDown: 1 },
        { ruleId: "secrets/github", source: "builtin", findings: 2, thumbsUp: 4, thumbsDown: 0 },
      ],
    });
    // One repository's alone.
    expect(await summed(auth, web.projectId)).toMatchObject({
      findings: 4,
      thumbsUp: 4,
      thumbsDown: 4,
      rules: [
        { ruleId: "markers/debugger", thumbsDown: 3 },
        { ruleId: "ai/logic", thumbsDown: 1 },
        { ruleId: "secrets/github", thumbsUp: 3 },
      ],
    });
  });

  it("counts a 👎 taken back as suppressed still, and reactions all taken back as none", async () => {
    const { auth, orgId } = await account("feedback-taken-back");
    const { react } = await repository(
      orgId,
      "web",
      [
        { ruleId: "markers/debugger", digit: "a" },
        { ruleId: "secrets/github", digit: "b" },
      ],
      [
        ["a", 0, 1],
        ["b", 1, 0],
      ],
    );
    await react([
      ["a", 0, 0],
      ["b", 0, 0],
    ]);
    expect(await summed(auth)).toEqual({
      findings: 1,
      thumbsUp: 0,
      thumbsDown: 0,
      suppressed: 1,
      rules: [{ ruleId: "markers/debugger", source: "builtin", findings: 1, thumbsUp: 0, thumbsDown: 0 }],
    });
  });

  it("lists at most FEEDBACK_RULES_LISTED_MAX rules, and counts a finding no run recorded in the totals only", async () => {
    const { auth, orgId } = await account("feedback-many-rules");
    const digits = "0123456789".slice(0, FEEDBACK_RULES_LISTED_MAX + 1).split("");
    await repository(
      orgId,
      "web",
      digits.map((digit) => ({ ruleId: `rules/r${digit}`, digit })),
      // r0 has the most 👎, the last rule the fewest; "e" was never recorded by a run.
      [...digits.map((digit, index): Reaction => [digit, 0, digits.length - index]), ["e", 0, 9]],
    );
    const { findings, thumbsDown, rules } = await summed(auth);
    expect(findings).toBe(digits.length + 1);
    expect(thumbsDown).toBe(digits.reduce((sum, _digit, index) => sum + digits.length - index, 9));
    expect(rules.map((rule) => rule.ruleId)).toEqual(
      digits.slice(0, FEEDBACK_RULES_LISTED_MAX).map((digit) => `rules/r${digit}`),
    );
  });

  it("keeps each organisation's reactions to itself", async () => {
    const mine = await account("feedback-mine");
    const theirs = await account("feedback-theirs");
    const theirRepository = await repository(
      theirs.orgId,
      "secret-repo",
      [{ ruleId: "secrets/aws", digit: "f" }],
      [["f", 2, 1]],
    );
    const none = { findings: 0, thumbsUp: 0, thumbsDown: 0, suppressed: 0, rules: [] };
    expect(await summed(mine.auth)).toEqual(none);
    // Naming their repository changes nothing.
    expect(await summed(mine.auth, theirRepository.projectId)).toEqual(none);
    expect((await summed(theirs.auth)).findings).toBe(1);
  });

  it("refuses a repository id that is not one, and a call without a session", async () => {
    const { auth } = await account("feedback-bad-query");
    const bad = await request(backend.app).get(REVIEW_FEEDBACK_PATH).query({ projectId: "web" }).set(auth);
    expect(bad.status).toBe(400);
    expect((await request(backend.app).get(REVIEW_FEEDBACK_PATH)).status).toBe(401);
  });
});
