import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Finding,
  SUPPRESSED_FINDINGS_PATHS,
  suppressedFindingsResponseSchema,
} from "../../shared/contract/reviews.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { repositoryWithFindings } from "../../tests/support/reacted-findings.ts";
import { testBackends } from "../../tests/support/test-backend.ts";
import type { Backend } from "../app.ts";

const fingerprint = (digit: string) => digit.repeat(64);

function finding(digit: string, line: number): Finding {
  return {
    ruleId: "sql-injection/js-template-query",
    severity: "critical",
    path: "src/orders.ts",
    line,
    quote: "db.query(`SELECT * FROM orders WHERE id = ${id}`)",
    message: "SQL is built from untrusted data here.",
    fingerprint: fingerprint(digit),
    source: "builtin",
  };
}

describe.each(TEST_DATABASE_KINDS)("suppressed findings on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  beforeAll(async () => {
    backend = await backends.start();
  });
  afterAll(() => backends.stop());

  /** An account with one repository whose runs found `findings`, with these 👍/👎 on pull request 4. */
  async function repositoryWith(name: string, reactions: Array<[string, number, number]>) {
    const { token, orgId } = await signedInAccount(backend, name, "github");
    const { projectId, react } = await repositoryWithFindings(
      backend.db,
      orgId,
      name,
      reactions.map(([digit], index) => finding(digit, index + 10)),
    );
    const feedback = (counts: Array<[string, number, number]>) =>
      react(counts.map(([digit, up, down]) => [fingerprint(digit), up, down]));
    await feedback(reactions);
    return { auth: { Authorization: `Bearer ${token}` }, projectId, feedback };
  }

  const list = async (auth: Record<string, string>, projectId: string) =>
    v.parse(
      suppressedFindingsResponseSchema,
      (await request(backend.app).get(SUPPRESSED_FINDINGS_PATHS.list(projectId)).set(auth)).body,
    ).data.findings;

  it("lists the findings a 👎 suppressed, with what the latest run recorded of them", async () => {
    const { auth, projectId } = await repositoryWith("listed", [
      ["a", 0, 1],
      ["b", 2, 0],
    ]);
    const response = await request(backend.app).get(SUPPRESSED_FINDINGS_PATHS.list(projectId)).set(auth);
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(await list(auth, projectId)).toEqual([
      {
        fingerprint: fingerprint("a"),
        finding: finding("a", 10),
        feedback: { thumbsUp: 0, thumbsDown: 1 },
        suppressedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
  });

  it("posts one again: only a 👎 more than it has now suppresses it again", async () => {
    const { auth, projectId, feedback } = await repositoryWith("released", [["c", 0, 1]]);
    const release = () =>
      request(backend.app)
        .delete(SUPPRESSED_FINDINGS_PATHS.one(projectId, fingerprint("c")))
        .set(auth);
    const answer = await release();
    expect([answer.status, answer.body]).toEqual([200, { success: true }]);
    expect(await list(auth, projectId)).toEqual([]);
    // Not suppressed any more: a second release is a 404.
    expect((await release()).status).toBe(404);

    // The next run reads the same 👎 on the pull request: it stays released.
    await feedback([["c", 0, 1]]);
    expect(await list(auth, projectId)).toEqual([]);
    // Someone presses 👎 again (a second person): suppressed again.
    await feedback([["c", 0, 2]]);
    expect((await list(auth, projectId)).map((entry) => entry.fingerprint)).toEqual([fingerprint("c")]);
  });

  it("is a 404 for another organisation's repository, and refuses a malformed id or fingerprint", async () => {
    const { projectId } = await repositoryWith("owner", [["d", 0, 1]]);
    const stranger = {
      Authorization: `Bearer ${(await signedInAccount(backend, "stranger", "github")).token}`,
    };
    expect(
      (await request(backend.app).get(SUPPRESSED_FINDINGS_PATHS.list(projectId)).set(stranger)).status,
    ).toBe(404);
    const theirs = request(backend.app).delete(SUPPRESSED_FINDINGS_PATHS.one(projectId, fingerprint("d")));
    expect((await theirs.set(stranger)).status).toBe(404);
    expect(
      (await request(backend.app).get(SUPPRESSED_FINDINGS_PATHS.list("nope")).set(stranger)).status,
    ).toBe(400);
    const malformed = SUPPRESSED_FINDINGS_PATHS.one(projectId, "not-a-fingerprint");
    expect((await request(backend.app).delete(malformed).set(stranger)).status).toBe(400);
  });
});
