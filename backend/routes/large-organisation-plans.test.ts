/**
 * Every query the list pages run for a large organisation (1,000 repositories, 5,000 contributors,
 * 20,000 review runs, beside a small one) reads projects, contributors, review runs and their
 * decisions through an index, never a sequential scan (docs/decisions/038-server-side-paging.md). On Postgres, whose
 * planner decides by the statistics ANALYZE gathered on the seeded rows; PGlite plans the same SQL.
 */
import pg from "pg";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LARGE_ORG, SMALL_ORG, seedOrganisation } from "../../bench/lib/org-seed.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import {
  CONTRIBUTOR_SORTS,
  HOME_PAGE_SIZE,
  PROJECT_SORTS,
  pageQueryString,
  REVIEW_SORTS,
} from "../../shared/contract/paging.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";

const WATCHED_TABLES = ["projects", "contributors", "review_runs", "review_decisions"];

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

function sequentialScans(node: PlanNode): string[] {
  const own = node["Node Type"] === "Seq Scan" && node["Relation Name"] ? [node["Relation Name"]] : [];
  return [...own, ...(node.Plans ?? []).flatMap(sequentialScans)];
}

describe.skipIf(!TEST_DATABASE_KINDS.includes("postgres"))("the list pages' queries on postgres", () => {
  let backend: Backend;
  let database: FreshDatabase;
  let large: { token: string; orgId: string };
  beforeAll(async () => {
    database = await freshDatabase("postgres");
    backend = await createBackend(
      loadConfig({ LOG_LEVEL: "silent", SESSION_SECRET: "s".repeat(32), ...database.env }),
    );
    large = await signedInAccount(backend, "large", "github");
    const small = await signedInAccount(backend, "small", "github");
    await seedOrganisation(backend.db, large.orgId, "large", LARGE_ORG);
    await seedOrganisation(backend.db, small.orgId, "small", SMALL_ORG);
    // What autovacuum does on a live server: statistics for the planner, the visibility map.
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    await client.query("vacuum analyze");
    await client.end();
  }, 300_000);
  afterAll(async () => {
    vi.restoreAllMocks();
    await backend?.close();
    await database?.drop();
  });

  it("reads projects, contributors, review runs and decisions through indexes only", async () => {
    const projectId = (
      await backend.db
        .selectFrom("projects")
        .select("id")
        .where("org_id", "=", large.orgId)
        .executeTakeFirstOrThrow()
    ).id;
    const statements: Array<{ text: string; values: unknown[] }> = [];
    const query = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const [text, values] = args;
      if (typeof text === "string" && /^\s*select/i.test(text)) {
        statements.push({ text, values: Array.isArray(values) ? values : [] });
      }
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query);

    // What /home, /subscriptions and /reviews ask for: first and later pages, each sort, a search.
    const paths = [
      ...PROJECT_SORTS.flatMap((sort) => [
        `${API_PATHS.projects}${pageQueryString({ pageSize: HOME_PAGE_SIZE, sort }, { integrationType: "git", integrationName: "github" })}`,
        `${API_PATHS.projects}${pageQueryString({ page: 20, pageSize: HOME_PAGE_SIZE, sort, search: "repository-05" }, { integrationType: "git", integrationName: "github" })}`,
      ]),
      ...CONTRIBUTOR_SORTS.flatMap((sort) => [
        `${API_PATHS.contributors}${pageQueryString({ pageSize: 10, sort })}`,
        `${API_PATHS.contributors}${pageQueryString({ page: 40, pageSize: 30, sort, search: "grace" })}`,
      ]),
      ...REVIEW_SORTS.flatMap((sort) => [
        `${API_PATHS.reviews}${pageQueryString({ sort })}`,
        `${API_PATHS.reviews}${pageQueryString({ page: 100, sort }, { status: "failed" })}`,
      ]),
    ];
    paths.push(`${API_PATHS.reviews}?projectId=${projectId}`);
    for (const path of paths) {
      await request(backend.app).get(path).set("Authorization", `Bearer ${large.token}`).expect(200);
    }
    vi.restoreAllMocks();

    const lists = statements.filter(({ text }) =>
      WATCHED_TABLES.some((table) => text.includes(`"${table}"`)),
    );
    // A page and its count per call.
    expect(lists.length).toBeGreaterThanOrEqual(paths.length * 2);
    const offending: string[] = [];
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    // Planned as on the SSDs a server runs on (docs/operations.md): Postgres's default of 4 models a
    // spinning disk, under which counting an organisation that is most of a table reads the table.
    await client.query("set random_page_cost = 1.1");
    try {
      for (const { text, values } of lists) {
        const { rows } = await client.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
          `explain (format json) ${text}`,
          values,
        );
        const plan = rows[0]?.["QUERY PLAN"][0]?.Plan as PlanNode;
        const scanned = sequentialScans(plan).filter((table) => WATCHED_TABLES.includes(table));
        if (scanned.length > 0) offending.push(`${scanned.join(", ")}: ${text} ${JSON.stringify(values)}`);
      }
    } finally {
      await client.end();
    }
    expect(offending).toEqual([]);
  }, 120_000);
});
