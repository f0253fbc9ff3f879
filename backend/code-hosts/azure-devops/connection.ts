/**
 * An organisation's Azure DevOps integration as stored: where (organisation URL, project and its
 * id), the personal access token sealed with the secret box (docs/security.md#secrets-at-rest), and
 * its service hook. The token is opened here only, so every reader (the review host, the webhook's
 * permission check, a new hook secret) treats a token no configured key opens the same way.
 */
import type { Logger } from "../../../shared/node/logging.ts";
import type { Db } from "../../db/database.ts";
import { isSealed, type SecretBox } from "../../secrets/secret-box.ts";
import { AZURE_DEVOPS_INTEGRATION, AZURE_DEVOPS_FIELDS as FIELDS } from "../catalogue.ts";
import type { AzureDevOpsProject } from "./connect.ts";

/** Properties key of the project's id, which Azure DevOps answers at setup (events name it). */
export const AZURE_DEVOPS_PROJECT_ID = "project_id";

/** What the token is authenticated with: a sealed token copied to another organisation's row does not open. */
export const personalAccessTokenContext = (orgId: string) =>
  `integrations.${AZURE_DEVOPS_INTEGRATION}.${FIELDS.personalAccessToken}:${orgId}`;

export interface AzureDevOpsConnectionDeps {
  db: Db;
  secrets: SecretBox;
  logger: Logger;
}

export interface AzureDevOpsConnection extends AzureDevOpsProject {
  orgId: string;
  /** Unknown for an integration set up before it was stored. */
  projectId: string | undefined;
}

export class AzureDevOpsTokenError extends Error {
  override name = "AzureDevOpsTokenError";
}

export const sealPersonalAccessToken = (secrets: SecretBox, orgId: string, token: string) =>
  secrets.seal(token, personalAccessTokenContext(orgId));

/**
 * The organisation's active Azure DevOps connection with its token opened; undefined when it has
 * none. Throws AzureDevOpsTokenError (logged, without any of the token) when no configured key
 * opens the token. A token stored before tokens were sealed is sealed now.
 */
export async function readAzureDevOpsConnection(
  deps: AzureDevOpsConnectionDeps,
  orgId: string,
): Promise<AzureDevOpsConnection | undefined> {
  const row = await deps.db
    .selectFrom("integrations")
    .select(["id", "properties", "secrets"])
    .where("org_id", "=", orgId)
    .where("name", "=", AZURE_DEVOPS_INTEGRATION)
    .where("is_active", "=", true)
    .executeTakeFirst();
  const organizationUrl = row?.properties[FIELDS.organizationUrl];
  const project = row?.properties[FIELDS.project];
  const stored = row?.secrets[FIELDS.personalAccessToken];
  if (!row || !organizationUrl || !project || !stored) return undefined;
  let personalAccessToken: string;
  if (isSealed(stored)) {
    const opened = await deps.secrets.open(stored, personalAccessTokenContext(orgId));
    if (!opened.ok) {
      deps.logger.warn(
        { orgId, reason: opened.reason, keyId: opened.keyId },
        "the Azure DevOps personal access token cannot be decrypted (was SECRETS_ENCRYPTION_KEY changed?); set the integration up again",
      );
      throw new AzureDevOpsTokenError(
        "The Azure DevOps personal access token cannot be decrypted; set the integration up again",
      );
    }
    personalAccessToken = opened.value;
  } else {
    personalAccessToken = stored;
    await sealStoredToken(deps, { id: row.id, orgId, secrets: row.secrets });
  }
  return {
    orgId,
    organizationUrl,
    project,
    projectId: row.properties[AZURE_DEVOPS_PROJECT_ID],
    personalAccessToken,
  };
}

/** Replaces a plaintext token with its sealed form, unless another writer changed it meanwhile. */
async function sealStoredToken(
  deps: AzureDevOpsConnectionDeps,
  row: { id: string; orgId: string; secrets: Record<string, string> },
): Promise<void> {
  const plain = row.secrets[FIELDS.personalAccessToken];
  if (!plain || isSealed(plain)) return;
  const sealed = await sealPersonalAccessToken(deps.secrets, row.orgId, plain);
  await deps.db
    .updateTable("integrations")
    .set({ secrets: JSON.stringify({ ...row.secrets, [FIELDS.personalAccessToken]: sealed }) })
    .where("id", "=", row.id)
    .where((eb) => eb(eb.ref("secrets", "->>").key(FIELDS.personalAccessToken), "=", plain))
    .execute();
}

/**
 * Seals every personal access token stored in plain text (before tokens were sealed), at start-up:
 * a migration cannot, as the key is not the database's. Returns how many it sealed.
 */
export async function sealStoredPersonalAccessTokens(deps: AzureDevOpsConnectionDeps): Promise<number> {
  const rows = await deps.db
    .selectFrom("integrations")
    .select(["id", "org_id", "secrets"])
    .where("name", "=", AZURE_DEVOPS_INTEGRATION)
    .execute();
  let sealed = 0;
  for (const row of rows) {
    const token = row.secrets[FIELDS.personalAccessToken];
    if (!token || isSealed(token)) continue;
    await sealStoredToken(deps, { id: row.id, orgId: row.org_id, secrets: row.secrets });
    sealed += 1;
  }
  if (sealed > 0)
    deps.logger.info({ sealed }, "sealed Azure DevOps personal access tokens stored in plain text");
  return sealed;
}
