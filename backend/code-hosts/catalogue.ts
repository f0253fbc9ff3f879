/**
 * The integrations an organisation can set up (docs/product.md#integrations), and how each looks
 * to one organisation: whether it is active, and its stored setup, secrets reduced to "set".
 */
import type { Integration, IntegrationField } from "../../shared/contract/code-hosts.ts";
import type { Db } from "../db/database.ts";
import { serviceHookUrl } from "./azure-devops/service-hooks.ts";
import type { InstallationFlow, Installer } from "./code-host.ts";
import { GitHubError } from "./github/api-client.ts";

export const GITHUB_INTEGRATION = "github";
export const AZURE_DEVOPS_INTEGRATION = "azure-devops";
/** The keys of Azure DevOps' setup form. */
export const AZURE_DEVOPS_FIELDS = {
  organizationUrl: "organization_url",
  project: "project",
  personalAccessToken: "personal_access_token",
} as const;
/** What every repository of a code host is, in `projects.integration_type`. */
export const GIT_INTEGRATION_TYPE = "git";

export interface CatalogueEntry {
  name: string;
  key: string;
  display_name: string;
  sub_title: string;
  description: string;
  icon: string;
  /** The setup form; empty for an integration set up by an app installation instead. */
  fields: IntegrationField[];
}

export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: GITHUB_INTEGRATION,
    key: GITHUB_INTEGRATION,
    display_name: "GitHub",
    sub_title: "Code host",
    description: "Install the GitHub App on your account or organisation to review its pull requests.",
    icon: "/icons/github.svg",
    fields: [],
  },
  {
    name: AZURE_DEVOPS_INTEGRATION,
    key: AZURE_DEVOPS_INTEGRATION,
    display_name: "Azure DevOps",
    sub_title: "Code host",
    description: "Connect an Azure DevOps project with a personal access token to review its pull requests.",
    icon: "/icons/azure-devops.svg",
    fields: [
      {
        key: AZURE_DEVOPS_FIELDS.organizationUrl,
        label: "Organization URL",
        type: "url",
        hint: "https://dev.azure.com/your-organization",
      },
      {
        key: AZURE_DEVOPS_FIELDS.project,
        label: "Project",
        type: "text",
        hint: "The name of the Azure DevOps project",
      },
      {
        key: AZURE_DEVOPS_FIELDS.personalAccessToken,
        label: "Personal Access Token",
        type: "password",
        hint: "A token with the Code (Read) and Pull Request Threads (Read & write) scopes",
      },
    ],
  },
];

export const catalogueEntry = (name: string) => CATALOGUE.find((entry) => entry.name === name);

export const isSecret = (field: IntegrationField) => field.type === "password";

interface StoredIntegration {
  name: string;
  integration_key: string;
  is_active: boolean;
  properties: Record<string, string>;
  secrets: Record<string, string>;
  hook_id: string | null;
  hook_secret_digest: string | null;
}

/** Azure DevOps' service hook as its page shows it: the URL once a secret exists, never the secret. */
const serviceHookOf = (stored: StoredIntegration, publicOrigin: string) =>
  stored.hook_id && stored.hook_secret_digest ? { url: serviceHookUrl(publicOrigin, stored.hook_id) } : null;

function present(
  entry: CatalogueEntry,
  stored: StoredIntegration | undefined,
  oauthUrl: string | undefined,
  publicOrigin: string,
): Integration {
  const { icon, ...described } = entry;
  const properties: NonNullable<Integration["activeIntegration"]>["properties"] = {};
  if (stored) {
    for (const field of entry.fields) {
      if (isSecret(field)) properties[field.key] = { set: Boolean(stored.secrets[field.key]) };
      else {
        const value = stored.properties[field.key];
        if (value !== undefined) properties[field.key] = value;
      }
    }
  }
  return {
    ...described,
    isActive: stored?.is_active ?? false,
    links: oauthUrl === undefined ? { icon } : { icon, oauth_url: oauthUrl },
    activeIntegration: stored
      ? {
          integration_key: stored.integration_key,
          is_active: stored.is_active,
          properties,
          ...(entry.name === AZURE_DEVOPS_INTEGRATION
            ? { serviceHook: serviceHookOf(stored, publicOrigin) }
            : {}),
        }
      : null,
  };
}

/** Connect's address; none while GitHub cannot say it, so a GitHub outage does not hide the list. */
async function installationUrl(
  installations: InstallationFlow,
  installer: Installer,
): Promise<string | undefined> {
  try {
    return await installations.installationUrl(installer);
  } catch (error) {
    if (error instanceof GitHubError) return undefined;
    throw error;
  }
}

/** The catalogue as the installer's organisation has it; `only` narrows it to one entry. */
export async function integrationsOf(
  db: Db,
  installations: InstallationFlow,
  { installer, publicOrigin }: { installer: Installer; publicOrigin: string },
  only?: CatalogueEntry,
): Promise<Integration[]> {
  const { orgId } = installer;
  const entries = only ? [only] : CATALOGUE;
  const rows = await db
    .selectFrom("integrations")
    .select([
      "name",
      "integration_key",
      "is_active",
      "properties",
      "secrets",
      "hook_id",
      "hook_secret_digest",
    ])
    .where("org_id", "=", orgId)
    .where(
      "name",
      "in",
      entries.map((entry) => entry.name),
    )
    .execute();
  const needsInstallationUrl = entries.some((entry) => entry.name === GITHUB_INTEGRATION);
  const oauthUrl = needsInstallationUrl ? await installationUrl(installations, installer) : undefined;
  return entries.map((entry) =>
    present(
      entry,
      rows.find((row) => row.name === entry.name),
      entry.name === GITHUB_INTEGRATION ? oauthUrl : undefined,
      publicOrigin,
    ),
  );
}
