/**
 * The reads each backend keeps in memory on a Postgres server (projects, subscription, settings):
 * one query per call once warm, and a write made anywhere else (the other backend, or straight in
 * the database as an operator would) seen by the next call (docs/decisions/045-read-versions.md).
 */
import pg from "pg";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Backend, createBackend } from "../../backend/app.ts";
import { loadConfig } from "../../backend/config.ts";
import { PLAN_VALUES } from "../../shared/constants.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { signedInAccount } from "../support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../support/databases.ts";
import { githubProjectRow } from "../support/project-rows.ts";
import { TEST_BACKEND_ENV } from "../support/test-backend.ts";

const get = (backend: Backend, token: string, path: string) =>
  request(backend.app).get(path).set("Authorization", `Bearer ${token}`);

/** The statements the backends send while `call` runs (pg-boss's own polling left out). */
async function statementsDuring(call: () => Promise<unknown>): Promise<string[]> {
  const query = vi.spyOn(pg.Client.prototype, "query");
  try {
    await call();
    return query.mock.calls
      .map(([statement]) =>
        typeof statement === "string" ? statement : (statement as { text: string }).text,
      )
      .filter((text) => !text.includes("pgboss"));
  } finally {
    query.mockRestore();
  }
}

describe.skipIf(!TEST_DATABASE_KINDS.includes("postgres"))(
  "cached reads on two backends of one Postgres",
  () => {
    let database: FreshDatabase;
    let a: Backend;
    let b: Backend;

    beforeAll(async () => {
      database = await freshDatabase("postgres");
      const env = { ...TEST_BACKEND_ENV, ...database.env, REVIEW_WORKERS: "0" };
      a = await createBackend(loadConfig(env));
      b = await createBackend(loadConfig(env));
    }, 60_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    const projectNames = async (backend: Backend, token: string) => {
      const response = await get(backend, token, API_PATHS.projects);
      expect(response.status).toBe(200);
      return (response.body.data.projects as { name: string }[]).map((listed) => listed.name);
    };

    it("answer each of the three calls with one statement once warm: the session check", async () => {
      const { token, orgId } = await signedInAccount(a, "one-statement");
      await a.db
        .insertInto("projects")
        .values([githubProjectRow(orgId, "api"), githubProjectRow(orgId, "web")])
        .execute();
      for (const path of [API_PATHS.projects, API_PATHS.subscription, API_PATHS.settings]) {
        expect((await get(b, token, path)).status).toBe(200);
        const statements = await statementsDuring(async () => {
          expect((await get(b, token, path)).status).toBe(200);
        });
        expect([path, statements.length]).toEqual([path, 1]);
        expect(statements[0]).toContain('from "sessions"');
        expect(statements[0]).toContain("read_versions");
      }
    });

    it("show on one backend the projects written elsewhere, at the next call", async () => {
      const { token, orgId } = await signedInAccount(a, "projects-elsewhere");
      await a.db.insertInto("projects").values(githubProjectRow(orgId, "api")).execute();
      expect(await projectNames(b, token)).toEqual(["api"]);
      expect(await projectNames(b, token)).toEqual(["api"]);

      await a.db.insertInto("projects").values(githubProjectRow(orgId, "web")).execute();
      expect(await projectNames(b, token)).toEqual(["api", "web"]);

      // Straight in the database, as an operator would: no backend hears of it but through the counter.
      const operator = new pg.Client({ connectionString: database.env.DATABASE_URL });
      await operator.connect();
      try {
        await operator.query("update projects set name = 'api-v2' where org_id = $1 and name = 'api'", [
          orgId,
        ]);
        expect(await projectNames(b, token)).toEqual(["api-v2", "web"]);
        await operator.query("delete from projects where org_id = $1 and name = 'web'", [orgId]);
        expect(await projectNames(b, token)).toEqual(["api-v2"]);
      } finally {
        await operator.end();
      }
    });

    it("show on one backend the settings saved through the other, at the next call", async () => {
      const { token } = await signedInAccount(a, "settings-elsewhere");
      const before = await get(b, token, API_PATHS.settings);
      const preferences = before.body.data.settings.account_preferences as Record<string, unknown>;
      const flipped = !preferences.review_draft_pull_requests;
      expect((await get(b, token, API_PATHS.settings)).body).toEqual(before.body);

      const saved = await request(a.app)
        .put(API_PATHS.settingsCategory("account_preferences"))
        .set("Authorization", `Bearer ${token}`)
        .send({ value: { ...preferences, review_draft_pull_requests: flipped } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);

      const after = await get(b, token, API_PATHS.settings);
      expect(after.body.data.settings.account_preferences.review_draft_pull_requests).toBe(flipped);
    });

    it("show on one backend the subscription changed elsewhere, at the next call", async () => {
      const { token, orgId } = await signedInAccount(a, "subscription-elsewhere");
      const seatsOf = async () => {
        const response = await get(b, token, API_PATHS.seatStatus);
        expect(response.status).toBe(200);
        return response.body.data;
      };
      const planOf = async () =>
        (await get(b, token, API_PATHS.subscription)).body.subscription.plan.plan_code;
      const seatsBefore = await seatsOf();
      expect(await planOf()).toBe(PLAN_VALUES.proTrial);
      await a.db
        .updateTable("subscriptions")
        .set({ plan_code: PLAN_VALUES.free, status: "paused", seats_total: 0 })
        .where("org_id", "=", orgId)
        .execute();
      expect(await planOf()).toBe(PLAN_VALUES.free);
      expect(await seatsOf()).not.toEqual(seatsBefore);
    });

    it("refuse on one backend a session logged out through the other, in the same call", async () => {
      const { token } = await signedInAccount(a, "logged-out-elsewhere");
      expect((await get(b, token, API_PATHS.projects)).status).toBe(200);
      const loggedOut = await request(a.app).post(API_PATHS.logout).set("Authorization", `Bearer ${token}`);
      expect(loggedOut.status).toBe(204);
      const statements = await statementsDuring(async () => {
        expect((await get(b, token, API_PATHS.projects)).status).toBe(401);
      });
      expect(statements).toHaveLength(1);
    });

    it("leave one organisation's answers in memory when another's rows change", async () => {
      const ours = await signedInAccount(a, "ours-kept");
      const theirs = await signedInAccount(a, "theirs-written");
      await projectNames(b, ours.token);
      await a.db.insertInto("projects").values(githubProjectRow(theirs.orgId, "elsewhere")).execute();
      const statements = await statementsDuring(() => projectNames(b, ours.token));
      expect(statements).toHaveLength(1);
    });
  },
);
