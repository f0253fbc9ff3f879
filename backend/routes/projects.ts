/** GET /api/projects: the repositories of the caller's organisation, optionally by integration. */
import type { Router } from "express";
import { z } from "zod";
import { ID_MAX } from "../../shared/constants.ts";
import { API_PATHS, type Project, type ProjectsResponse } from "../../shared/contract.ts";
import { sessionOf } from "../auth/require-session.ts";
import type { Db } from "../db/database.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";

const projectsQuerySchema = z.object({
  integrationType: z.string().min(1).max(ID_MAX).optional(),
  integrationName: z.string().min(1).max(ID_MAX).optional(),
});

export function projectsRouter(db: Db): Router {
  const router = strictRouter();

  router.get(API_PATHS.projects, async (req, res) => {
    const query = parseRequest(projectsQuerySchema, req.query, "query");
    const { org } = sessionOf(res);
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
      .where("org_id", "=", org.id)
      .orderBy("name")
      .orderBy("id");
    if (query.integrationType) select = select.where("integration_type", "=", query.integrationType);
    if (query.integrationName) select = select.where("integration_name", "=", query.integrationName);
    const projects: Project[] = await select.execute();
    res.json({ success: true, data: { projects } } satisfies ProjectsResponse);
  });

  return router;
}
