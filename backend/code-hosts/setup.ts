/**
 * Setting an integration up for an organisation: a form's values (Azure DevOps), or a code-host
 * installation (GitHub, or the sandbox); either way the code host's repositories become the
 * organisation's projects.
 */
import { sql } from "kysely";
import * as v from "valibot";
import { URL_MAX } from "../../shared/constants.ts";
import type { IntegrationSetupRequest } from "../../shared/contract/code-hosts.ts";
import { AZURE_DEVOPS } from "../../shared/contract/code-hosts.ts";
import type { Db } from "../db/database.ts";
import type { ProjectProperties } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import { parseRequest } from "../http/validate.ts";
import { type CatalogueEntry, GIT_INTEGRATION_TYPE, GITHUB_INTEGRATION, isSecret } from "./catalogue.ts";
import type { Repository } from "./code-host.ts";
import { activeGitHubIntegrations } from "./github/installations.ts";

async function storeIntegration(
  db: Db,
  orgId: string,
  values: {
    name: string;
    integration_key: string;
    properties: Record<string, string>;
    secrets: Record<string, string>;
  },
): Promise<void> {
  const row = {
    integration_key: values.integration_key,
    is_active: true,
    properties: JSON.stringify(values.properties),
    secrets: JSON.stringify(values.secrets),
  };
  await db
    .insertInto("integrations")
    .values({ org_id: orgId, name: values.name, ...row })
    .onConflict((conflict) =>
      conflict.columns(["org_id", "name"]).doUpdateSet({ ...row, updated_at: sql<Date>`now()` }),
    )
    .execute();
}

/**
 * The body an entry's form sends: exactly its fields, each a value its input type accepts. URLs are
 * https (`allowHttp`: http too, for a local fake) and carry no credentials, which belong in fields.
 */
function formSchema(entry: CatalogueEntry, allowHttp: boolean) {
  const protocols = allowHttp ? ["https:", "http:"] : ["https:"];
  const url = v.pipe(
    v.string(),
    v.check(
      (value) => protocols.includes(URL.parse(value)?.protocol ?? ""),
      allowHttp ? "must be an http or https URL" : "must be an https URL",
    ),
    v.maxLength(URL_MAX),
    v.check((value) => !URL.parse(value)?.username, "must not contain a user name or password"),
  );
  const text = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(URL_MAX));
  return v.strictObject(
    Object.fromEntries(entry.fields.map((field) => [field.key, field.type === "url" ? url : text])),
  );
}

/** A form's values, keyed by field key; 400 for a missing, unknown or malformed field. */
export function parseFormSetup(
  entry: CatalogueEntry,
  body: IntegrationSetupRequest,
  options: { allowHttp: boolean },
): Record<string, string> {
  return parseRequest(formSchema(entry, options.allowHttp), body) as Record<string, string>;
}

/**
 * Connects a form setup: the integration becomes active with its values (and `more` properties
 * the code host answered), secret fields in `secrets`, which no answer carries (sealed by the
 * caller), and its projects become exactly `repositories`. A repository serves one organisation:
 * when another already has one of them, the answer is 409 and nothing is stored.
 */
export async function connectFormSetup(
  db: Db,
  orgId: string,
  entry: CatalogueEntry,
  values: Record<string, string>,
  repositories: readonly Repository[],
  more: Record<string, string> = {},
): Promise<void> {
  const properties: Record<string, string> = { ...more };
  const secrets: Record<string, string> = {};
  for (const field of entry.fields) {
    (isSecret(field) ? secrets : properties)[field.key] = values[field.key] ?? "";
  }
  await db.transaction().execute(async (trx) => {
    // Two organisations setting up at once must not both see the repository free.
    await sql`select pg_advisory_xact_lock(hashtext(${`argus:setup:${entry.name}`}))`.execute(trx);
    await refuseRepositoriesOfOthers(trx, orgId, entry, repositories);
    await storeIntegration(trx, orgId, { name: entry.name, integration_key: entry.key, properties, secrets });
    await replaceProjects(trx, orgId, { name: entry.name, key: entry.key }, repositories, false);
  });
}

/** 409 when one of `repositories` is an active project of `entry` in another organisation. */
async function refuseRepositoriesOfOthers(
  trx: Db,
  orgId: string,
  entry: CatalogueEntry,
  repositories: readonly Repository[],
): Promise<void> {
  if (repositories.length === 0) return;
  const taken = await trx
    .selectFrom("projects")
    .select("id")
    .where("integration_name", "=", entry.name)
    .where("org_id", "!=", orgId)
    .where("active", "=", true)
    .where(
      "external_id",
      "in",
      repositories.map((repository) => repository.id),
    )
    .limit(1)
    .executeTakeFirst();
  if (taken) throw new HttpError(409, { error: AZURE_DEVOPS.repositoryTaken });
}

/** Where a project comes from: the integration's name and the key of its connection. */
export interface ProjectSource {
  name: string;
  key: string;
}

function projectRow(orgId: string, source: ProjectSource, repository: Repository, sandbox: boolean) {
  const properties: ProjectProperties = {
    full_name: repository.full_name,
    private: repository.private,
    description: repository.description,
    ...(repository.default_branch === undefined ? {} : { default_branch: repository.default_branch }),
    fork: repository.fork,
    ...(sandbox ? { sandbox: true } : {}),
  };
  return {
    org_id: orgId,
    name: repository.name,
    integration_key: source.key,
    integration_name: source.name,
    integration_type: GIT_INTEGRATION_TYPE,
    external_link: repository.html_url,
    external_id: repository.id,
    properties: JSON.stringify(properties),
  };
}

/** Adds or updates repositories of a code-host connection as projects of the organisation. */
export async function importRepositories(
  db: Db,
  orgId: string,
  source: ProjectSource,
  repositories: readonly Repository[],
  sandbox: boolean,
): Promise<void> {
  if (repositories.length === 0) return;
  await db
    .insertInto("projects")
    .values(repositories.map((repository) => projectRow(orgId, source, repository, sandbox)))
    .onConflict((conflict) =>
      conflict.columns(["org_id", "integration_name", "external_id"]).doUpdateSet((eb) => ({
        name: eb.ref("excluded.name"),
        integration_key: eb.ref("excluded.integration_key"),
        external_link: eb.ref("excluded.external_link"),
        properties: eb.ref("excluded.properties"),
        active: true,
      })),
    )
    .execute();
}

/**
 * Connects an installation to the organisation: the GitHub integration becomes active with it,
 * and the organisation's GitHub projects become exactly its repositories. An installation serves
 * one organisation; another's claim to it answers 409.
 */
export async function connectInstallation(
  db: Db,
  orgId: string,
  installationId: string,
  repositories: readonly Repository[],
  sandbox: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const claimed = await activeGitHubIntegrations(trx)
      .select("org_id")
      .where("integration_key", "=", installationId)
      .where("org_id", "!=", orgId)
      .executeTakeFirst();
    if (claimed) {
      throw new HttpError(409, { error: "This installation is connected to another organization." });
    }
    await storeIntegration(trx, orgId, {
      name: GITHUB_INTEGRATION,
      integration_key: installationId,
      properties: {},
      secrets: {},
    });
    await replaceProjects(
      trx,
      orgId,
      { name: GITHUB_INTEGRATION, key: installationId },
      repositories,
      sandbox,
    );
  });
}

/** The organisation's projects of `source.name` become exactly `repositories`, matched by external id. */
async function replaceProjects(
  trx: Db,
  orgId: string,
  source: ProjectSource,
  repositories: readonly Repository[],
  sandbox: boolean,
): Promise<void> {
  let stale = trx
    .deleteFrom("projects")
    .where("org_id", "=", orgId)
    .where("integration_name", "=", source.name);
  if (repositories.length > 0) {
    stale = stale.where((eb) =>
      eb.or([
        eb("external_id", "is", null),
        eb(
          "external_id",
          "not in",
          repositories.map((repository) => repository.id),
        ),
      ]),
    );
  }
  await stale.execute();
  await importRepositories(trx, orgId, source, repositories, sandbox);
}
