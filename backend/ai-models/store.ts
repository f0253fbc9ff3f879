/**
 * An organisation's AI model as stored (docs/decisions/018-ai-model-settings.md): one `ai_models`
 * row, the API key sealed with the secret box. Opening the key happens here only, so every reader
 * (the API, the review pipeline) treats a key that no configured key opens the same way.
 */
import { sql } from "kysely";
import type { AiModelRequest } from "../../shared/contract/ai-model.ts";
import type { Logger } from "../../shared/node/logging.ts";
import type { Db } from "../db/database.ts";
import type { ModelSettings } from "../review/reviewers/ai/model-provider.ts";
import type { SecretBox } from "../secrets/secret-box.ts";

/** What the key is authenticated with: a sealed key copied to another organisation's row does not open. */
export const apiKeyContext = (orgId: string) => `ai_models.api_key:${orgId}`;

export interface StoredAiModel {
  /** The settings with the key opened; `apiKey` is null when none is stored or it cannot be opened. */
  settings: ModelSettings;
  updatedAt: Date;
}

export interface AiModelStoreDeps {
  db: Db;
  secrets: SecretBox;
  logger: Logger;
}

/** The organisation's model; null when it has none. */
export async function readAiModel(deps: AiModelStoreDeps, orgId: string): Promise<StoredAiModel | null> {
  const row = await deps.db
    .selectFrom("ai_models")
    .selectAll()
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    settings: {
      kind: row.kind,
      baseUrl: row.base_url,
      model: row.model,
      apiKey: row.api_key_ciphertext === null ? null : await openKey(deps, orgId, row.api_key_ciphertext),
      inputTokenLimit: row.input_token_limit,
      monthlyBudgetCents: row.monthly_budget_cents,
    },
    updatedAt: row.updated_at,
  };
}

/** The stored key, or null (logged, without any of it) when no configured key opens it. */
async function openKey(deps: AiModelStoreDeps, orgId: string, sealed: string): Promise<string | null> {
  const opened = await deps.secrets.open(sealed, apiKeyContext(orgId));
  if (opened.ok) return opened.value;
  deps.logger.warn(
    { orgId, reason: opened.reason, keyId: opened.keyId },
    "the AI model's stored API key cannot be decrypted (was SECRETS_ENCRYPTION_KEY changed?); it reads as not set until saved again",
  );
  return null;
}

/**
 * Saves the organisation's model. `request.apiKey`: absent keeps the stored key, a string replaces
 * it, null removes it. A kept key stays only while the kind and base URL are the row's own, checked
 * in the same statement: a save that moves the model elsewhere without a key drops the stored one
 * rather than send it there (the route refuses such a request before; this holds under races too).
 */
export async function saveAiModel(
  deps: AiModelStoreDeps,
  orgId: string,
  request: AiModelRequest,
): Promise<void> {
  const values = {
    kind: request.kind,
    base_url: request.baseUrl,
    model: request.model,
    input_token_limit: request.inputTokenLimit,
    monthly_budget_cents: request.monthlyBudgetCents,
    updated_at: new Date(),
  };
  const sealed =
    typeof request.apiKey === "string" ? await deps.secrets.seal(request.apiKey, apiKeyContext(orgId)) : null;
  const keptKey = sql<string | null>`case when ai_models.kind = excluded.kind
    and ai_models.base_url is not distinct from excluded.base_url
    then ai_models.api_key_ciphertext end`;
  await deps.db
    .insertInto("ai_models")
    .values({ org_id: orgId, ...values, api_key_ciphertext: sealed })
    .onConflict((conflict) =>
      conflict
        .column("org_id")
        .doUpdateSet({ ...values, api_key_ciphertext: request.apiKey === undefined ? keptKey : sealed }),
    )
    .execute();
}

/** Back to the built-in reviewer alone; false when there was nothing to remove. */
export async function deleteAiModel(db: Db, orgId: string): Promise<boolean> {
  const result = await db.deleteFrom("ai_models").where("org_id", "=", orgId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
