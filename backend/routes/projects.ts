/** GET /api/projects: the repositories of the caller's organisation, optionally by integration. */
import type { Router } from "express";
import { z } from "zod";
import { ID_MAX } from "../../shared/constants.ts";
import { API_PATHS, type Project, type ProjectsResponse } from "../../shared/contract.ts";
import { sessionOf } from "../auth/require-session.ts";
import type { Db } from "../db/database.ts";
import { cachedRead, type ReadCacheKind } from "../db/read-cache.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";

const projectsQuerySchema = z.object({
  integrationType: z.string().min(1).max(ID_MAX).optional(),
  integrationName: z.string().min(1).max(ID_MAX).optional(),
});

/**
 * The list is read on every dashboard load; on embedded PGlite it is answered from memory until the
 * next write to projects (db/read-cache.ts).
 */
const PROJECT_LISTS: ReadCacheKind = { tables: ["projects"] };

export function projectsRouter(db: Db): Router {
  const router = strictRouter();

  router.get(API_PATHS.projects, async (req, res) => {
    const query = parseRequest(projectsQuerySchema, req.query, "query");
    const { org } = sessionOf(res);
    const key = [org.id, query.integrationType ?? "", query.integrationName ?? ""].join("\n");
    const projects = await cachedRead(db, PROJECT_LISTS, key, () => listProjects(db, org.id, query));
    res.json({ success: true, data: { projects } } satisfies ProjectsResponse);
  });

  return router;
}

function listProjects(db: Db, orgId: string, query: z.infer<typeof projectsQuerySchema>): Promise<Project[]> {
  let select = db
    .selectFrom("projects")
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
    .where("org_id", "=", orgId)
    .orderBy("name")
    .orderBy("id");
  if (query.integrationType) select = select.where("integration_type", "=", query.integrationType);
  if (query.integrationName) select = select.where("integration_name", "=", query.integrationName);
  return select.execute();
}
