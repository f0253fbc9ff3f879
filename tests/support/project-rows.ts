/** A stored GitHub repository of an organisation, as the tests insert it straight into `projects`. */
import type { Insertable } from "kysely";
import type { ProjectsTable } from "../../backend/db/schema.ts";

export function githubProjectRow(
  orgId: string,
  name: string,
  more: Partial<Insertable<ProjectsTable>> = {},
): Insertable<ProjectsTable> {
  return {
    org_id: orgId,
    name,
    integration_key: "1",
    integration_name: "github",
    integration_type: "git",
    external_link: `https://github.com/acme/${name}`,
    external_id: name,
    ...more,
  };
}
