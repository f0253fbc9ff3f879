/**
 * GET /api/projects: one page of the repositories of the caller's organisation, optionally of one
 * integration, searched by name and sorted (docs/decisions/038-server-side-paging.md).
 */
import type { Router } from "express";
import {
  type Project,
  type ProjectsQuery,
  type ProjectsResponse,
  projectsQuerySchema,
} from "../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import type { PageInfo } from "../../shared/contract/paging.ts";
import { sessionOf } from "../auth/require-session.ts";
import type { Db } from "../db/database.ts";
import { containsPattern, offsetOf, pageInfoOf } from "../db/paging.ts";
import { cachedRead, type ReadCacheKind } from "../db/read-cache.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";

/**
 * Pages are read on every dashboard load; each is answered from memory until the next write to
 * projects (on embedded PGlite) or to the organisation's projects through any backend (on a
 * Postgres server): db/read-cache.ts.
 */
const PROJECT_PAGES: ReadCacheKind = { tables: ["projects"] };

export function projectsRouter(db: Db): Router {
  const router = strictRouter();

  router.get(API_PATHS.projects, async (req, res) => {
    const query = parseRequest(projectsQuerySchema, req.query, "query");
    const { org, readVersion } = sessionOf(res);
    const key = JSON.stringify([
      org.id,
      query.integrationType,
      query.integrationName,
      query.search,
      query.sort,
      query.page,
      query.pageSize,
    ]);
    const { projects, page } = await cachedRead(
      db,
      PROJECT_PAGES,
      key,
      () => projectPage(db, org.id, query),
      readVersion,
    );
    res.json({ success: true, data: { projects }, page } satisfies ProjectsResponse);
  });

  return router;
}

/** The organisation's projects that match the query's filters and search, before paging. */
function matching(db: Db, orgId: string, query: ProjectsQuery) {
  let select = db.selectFrom("projects").where("org_id", "=", orgId);
  if (query.integrationType) select = select.where("integration_type", "=", query.integrationType);
  if (query.integrationName) select = select.where("integration_name", "=", query.integrationName);
  // By name alone, which the page's index holds: the full name only adds the owner before it.
  if (query.search) select = select.where("name", "ilike", containsPattern(query.search));
  return select;
}

async function projectPage(
  db: Db,
  orgId: string,
  query: ProjectsQuery,
): Promise<{ projects: Project[]; page: PageInfo }> {
  const direction = query.sort === "-name" ? "desc" : "asc";
  const [projects, counted] = await Promise.all([
    matching(db, orgId, query)
      .select([
        "id",
        "name",
        "integration_key",
        "integration_name",
        "integration_type",
        "external_link",
        "active",
        "webhook_active",
        "properties",
      ])
      .orderBy("name", direction)
      .orderBy("id", direction)
      .limit(query.pageSize)
      .offset(offsetOf(query))
      .execute(),
    matching(db, orgId, query)
      .select((eb) => eb.fn.countAll<string>().as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { projects, page: pageInfoOf(query, Number(counted.total)) };
}
