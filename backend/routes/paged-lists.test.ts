/**
 * The paged lists (docs/decisions/038-server-side-paging.md): repositories, contributors and review
 * runs answer one page with its total, searched and sorted in the database, never more than
 * PAGE_SIZE_MAX items, and never another organisation's rows.
 */

import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedOrganisation } from "../../bench/lib/org-seed.ts";
import { projectsResponseSchema } from "../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { contributorsResponseSchema } from "../../shared/contract/contributors.ts";
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_MAX, pageQueryString } from "../../shared/contract/paging.ts";
import { reviewRunsResponseSchema } from "../../shared/contract/reviews.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";

const SIZE = { repositories: 130, contributors: 120, seats: 5, runs: 260 };

describe.each(TEST_DATABASE_KINDS)("paged lists on %s", (kind) => {
  let backend: Backend;
  let database: FreshDatabase;
  let mine: { token: string; orgId: string };
  let theirs: { token: string; orgId: string };
  beforeAll(async () => {
    database = await freshDatabase(kind);
    backend = await createBackend(
      loadConfig({ LOG_LEVEL: "silent", SESSION_SECRET: "s".repeat(32), ...database.env }),
    );
    mine = await signedInAccount(backend, "mine", "github");
    theirs = await signedInAccount(backend, "theirs", "github");
    await seedOrganisation(backend.db, mine.orgId, "mine", SIZE);
    await seedOrganisation(backend.db, theirs.orgId, "theirs", { ...SIZE, runs: 20 });
  }, 120_000);
  afterAll(async () => {
    await backend?.close();
    await database?.drop();
  });

  const get = (path: string) =>
    request(backend.app).get(path).set("Authorization", `Bearer ${mine.token}`).expect(200);

  it("answers the repositories a page at a time, 50 by default, searched and sorted by name", async () => {
    const first = v.parse(projectsResponseSchema, (await get(API_PATHS.projects)).body);
    expect(first.data.projects).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(first.page).toEqual({ total: 130, page: 1, pageSize: DEFAULT_PAGE_SIZE });
    expect(first.data.projects[0]?.name).toBe("mine-repository-0001");

    const third = v.parse(
      projectsResponseSchema,
      (await get(`${API_PATHS.projects}${pageQueryString({ page: 3, pageSize: 50 })}`)).body,
    );
    expect(third.data.projects.map((project) => project.name)).toEqual(
      Array.from({ length: 30 }, (_, i) => `mine-repository-${String(101 + i).padStart(4, "0")}`),
    );

    const newest = v.parse(
      projectsResponseSchema,
      (await get(`${API_PATHS.projects}${pageQueryString({ pageSize: 2, sort: "-name" })}`)).body,
    );
    expect(newest.data.projects.map((project) => project.name)).toEqual([
      "mine-repository-0130",
      "mine-repository-0129",
    ]);

    // Search is in the name or full name, any case; LIKE's wildcards match only themselves.
    const found = v.parse(
      projectsResponseSchema,
      (await get(`${API_PATHS.projects}${pageQueryString({ search: "REPOSITORY-012" })}`)).body,
    );
    expect(found.page.total).toBe(10);
    expect(found.data.projects.every((project) => project.name.startsWith("mine-repository-012"))).toBe(true);
    for (const search of ["%", "_", "theirs"]) {
      const none = v.parse(
        projectsResponseSchema,
        (await get(`${API_PATHS.projects}${pageQueryString({ search })}`)).body,
      );
      expect(none.page.total, search).toBe(0);
    }
  });

  it("refuses a page larger than PAGE_SIZE_MAX, a page below 1 and an unknown sort", async () => {
    const auth = { Authorization: `Bearer ${mine.token}` };
    for (const path of [API_PATHS.projects, API_PATHS.contributors, API_PATHS.reviews]) {
      for (const query of [`pageSize=${PAGE_SIZE_MAX + 1}`, "page=0", "sort=secret", "page=1&page=2"]) {
        const response = await request(backend.app).get(`${path}?${query}`).set(auth);
        expect(response.status, `${path}?${query}`).toBe(400);
      }
    }
    const most = v.parse(
      projectsResponseSchema,
      (await get(`${API_PATHS.projects}?pageSize=${PAGE_SIZE_MAX}`)).body,
    );
    expect(most.data.projects).toHaveLength(PAGE_SIZE_MAX);
  });

  it("answers the contributors a page at a time, by name, username or activity, searched by name", async () => {
    const first = v.parse(
      contributorsResponseSchema,
      (await get(`${API_PATHS.contributors}${pageQueryString({ pageSize: 10 })}`)).body,
    );
    expect(first.page).toEqual({ total: 120, page: 1, pageSize: 10 });
    const names = first.data.map((row) => row.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const pages = await Promise.all(
      Array.from(
        { length: 12 },
        async (_, i) =>
          v.parse(
            contributorsResponseSchema,
            (await get(`${API_PATHS.contributors}${pageQueryString({ page: i + 1, pageSize: 10 })}`)).body,
          ).data,
      ),
    );
    // Every contributor on exactly one page.
    expect(new Set(pages.flat().map((row) => row.id)).size).toBe(120);

    const byUsername = v.parse(
      contributorsResponseSchema,
      (await get(`${API_PATHS.contributors}${pageQueryString({ pageSize: 3, sort: "-platform_id" })}`)).body,
    );
    expect(byUsername.data.map((row) => row.platform_id)).toEqual([
      "mine-dev-00120",
      "mine-dev-00119",
      "mine-dev-00118",
    ]);

    // Latest activity first, and people without activity last in both directions.
    for (const sort of ["-last_git_activity", "last_git_activity"] as const) {
      const all = v.parse(
        contributorsResponseSchema,
        (await get(`${API_PATHS.contributors}${pageQueryString({ pageSize: 100, sort })}`)).body,
      ).data;
      const dates = all.map((row) => row.last_git_activity);
      const firstNull = dates.indexOf(null);
      expect(
        dates.slice(firstNull).every((date) => date === null),
        sort,
      ).toBe(true);
      const known = dates.slice(0, firstNull).map((date) => Date.parse(date as string));
      const ordered = [...known].sort((a, b) => (sort === "last_git_activity" ? a - b : b - a));
      expect(known, sort).toEqual(ordered);
    }

    const found = v.parse(
      contributorsResponseSchema,
      (await get(`${API_PATHS.contributors}${pageQueryString({ search: "grace" })}`)).body,
    );
    expect(found.page.total).toBe(12);
    expect(found.data.every((row) => row.name.startsWith("Grace "))).toBe(true);
  });

  it("answers the review runs a page at a time, newest first, by repository and status, never another organisation's", async () => {
    const first = v.parse(reviewRunsResponseSchema, (await get(API_PATHS.reviews)).body);
    expect(first.page).toEqual({ total: 260, page: 1, pageSize: DEFAULT_PAGE_SIZE });
    const queued = first.data.map((run) => Date.parse(run.queuedAt));
    expect(queued).toEqual([...queued].sort((a, b) => b - a));
    expect(first.data.every((run) => run.repository.startsWith("mine/"))).toBe(true);

    const last = v.parse(
      reviewRunsResponseSchema,
      (await get(`${API_PATHS.reviews}${pageQueryString({ page: 6 })}`)).body,
    );
    expect(last.data).toHaveLength(10);
    const oldest = v.parse(
      reviewRunsResponseSchema,
      (await get(`${API_PATHS.reviews}${pageQueryString({ pageSize: 10, sort: "queued_at" })}`)).body,
    );
    expect(oldest.data.map((run) => run.id)).toEqual(last.data.map((run) => run.id).reverse());

    // One run in ten of those that posted was reviewed in shadow mode.
    const shadows = await Promise.all(
      [1, 2, 3].map(async (page) =>
        v
          .parse(reviewRunsResponseSchema, (await get(`${API_PATHS.reviews}?pageSize=100&page=${page}`)).body)
          .data.filter((run) => run.shadow),
      ),
    );
    expect(shadows.flat().length).toBeGreaterThan(10);
    expect(shadows.flat().every((run) => run.status === "succeeded")).toBe(true);

    const failed = v.parse(reviewRunsResponseSchema, (await get(`${API_PATHS.reviews}?status=failed`)).body);
    expect(failed.page.total).toBe(Math.ceil(260 / 17));
    expect(failed.data.every((run) => run.status === "failed")).toBe(true);

    const projectId = first.data[0]?.projectId as string;
    const ofOne = v.parse(
      reviewRunsResponseSchema,
      (await get(`${API_PATHS.reviews}?projectId=${projectId}`)).body,
    );
    expect(ofOne.page.total).toBe(2);
    expect(ofOne.data.every((run) => run.projectId === projectId)).toBe(true);

    const theirProject = v.parse(
      reviewRunsResponseSchema,
      (
        await request(backend.app)
          .get(API_PATHS.reviews)
          .set("Authorization", `Bearer ${theirs.token}`)
          .expect(200)
      ).body,
    ).data[0]?.projectId as string;
    const foreign = v.parse(
      reviewRunsResponseSchema,
      (await get(`${API_PATHS.reviews}?projectId=${theirProject}`)).body,
    );
    expect(foreign).toMatchObject({ data: [], page: { total: 0 } });
  });

  it("finds the review runs of a pull request by its number or a part of its title, in this organisation only", async () => {
    const runsOf = async (query: Record<string, string>) =>
      v.parse(
        reviewRunsResponseSchema,
        (await get(`${API_PATHS.reviews}?${new URLSearchParams({ pageSize: "100", ...query })}`)).body,
      );
    // Each of the 130 repositories has pull requests 1 and 2, titled "Change <n> of the service";
    // the newest run's pull request (2) has no title yet.
    const second = await runsOf({ search: "#2" });
    expect(second.page.total).toBe(130);
    expect(second.data.every((run) => run.pullRequest === 2 && run.repository.startsWith("mine/"))).toBe(
      true,
    );
    expect(second.data.some((run) => run.pullRequestTitle === null)).toBe(true);
    expect((await runsOf({ search: "2" })).page.total).toBe(130);

    const first = await runsOf({ search: "  change 1 OF " });
    expect(first.page.total).toBe(130);
    expect(first.data.every((run) => run.pullRequestTitle === "Change 1 of the service")).toBe(true);
    expect((await runsOf({ search: "of the service" })).page.total).toBe(259);

    const failedOfFirst = await runsOf({ search: "#1", status: "failed" });
    expect(failedOfFirst.page.total).toBeGreaterThan(0);
    expect(failedOfFirst.data.every((run) => run.pullRequest === 1 && run.status === "failed")).toBe(true);

    // A LIKE wildcard is a character to find, and a number no pull request has finds none.
    for (const search of ["%", "_", "Change_1", "#3"]) {
      expect((await runsOf({ search })).page.total, search).toBe(0);
    }
  });
});
