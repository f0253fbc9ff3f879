import { href } from "react-router";
import type { Project } from "../../../shared/contract/code-hosts.ts";

/** /settings for one repository (docs/product.md#home: the card's settings icon). */
export function repositorySettingsHref(project: Project): string {
  const query = new URLSearchParams({
    repositoryId: project.id,
    integrationKey: project.integration_key,
    integrationName: project.integration_name,
    integrationType: project.integration_type,
  });
  return `${href("/settings")}?${query}`;
}
