/**
 * Each Azure DevOps integration's own service hook (docs/decisions/028-azure-devops-tenancy.md):
 * `POST /webhooks/azure-devops/{hook id}` with Basic auth whose password is the hook's secret. The
 * secret is 32 random bytes, shown once when made; only its SHA-256 is stored (a digest of that
 * much randomness needs no slow hash) and a hook's password is compared with it in constant time.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { ServiceHookSecret } from "../../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import type { Db } from "../../db/database.ts";
import { AZURE_DEVOPS_INTEGRATION } from "../catalogue.ts";

const SECRET_BYTES = 32;

const digestOf = (secret: string) => createHash("sha256").update(secret, "utf8").digest();

/** The hook's public address, on the deployment's public origin (the gateway forwards /webhooks). */
export const serviceHookUrl = (publicOrigin: string, hookId: string) =>
  new URL(API_PATHS.azureDevOpsWebhook(hookId), publicOrigin).toString();

/** Whether `secret` is the one whose digest (hex) is stored; constant time in the secret. */
export function hookSecretMatches(secret: string, storedDigest: string): boolean {
  const stored = Buffer.from(storedDigest, "hex");
  const given = digestOf(secret);
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/** The Basic-auth password of an Authorization header (any user name), or undefined. */
export function basicAuthPassword(header: string | undefined): string | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const credentials = Buffer.from(match[1], "base64").toString("utf8");
  const colon = credentials.indexOf(":");
  return colon < 0 ? undefined : credentials.slice(colon + 1);
}

/**
 * A new secret for the organisation's Azure DevOps hook, replacing the old one at once; the hook's
 * id (its URL) is made with the first secret and then kept. Undefined when the organisation has no
 * Azure DevOps integration.
 */
export async function issueHookSecret(
  db: Db,
  orgId: string,
  publicOrigin: string,
): Promise<ServiceHookSecret | undefined> {
  const secret = randomBytes(SECRET_BYTES).toString("base64url");
  const row = await db
    .updateTable("integrations")
    .set((eb) => ({
      hook_id: eb.fn.coalesce("hook_id", eb.val(randomUUID())),
      hook_secret_digest: digestOf(secret).toString("hex"),
    }))
    .where("org_id", "=", orgId)
    .where("name", "=", AZURE_DEVOPS_INTEGRATION)
    .returning("hook_id")
    .executeTakeFirst();
  if (!row?.hook_id) return undefined;
  return { url: serviceHookUrl(publicOrigin, row.hook_id), secret };
}

/** A secret for the organisation's hook unless it has one: a setup done again keeps the hook working. */
export async function issueHookSecretIfMissing(
  db: Db,
  orgId: string,
  publicOrigin: string,
): Promise<ServiceHookSecret | undefined> {
  const row = await db
    .selectFrom("integrations")
    .select("hook_secret_digest")
    .where("org_id", "=", orgId)
    .where("name", "=", AZURE_DEVOPS_INTEGRATION)
    .executeTakeFirst();
  if (!row || row.hook_secret_digest) return undefined;
  return issueHookSecret(db, orgId, publicOrigin);
}

/** The hook named by a URL's id: its organisation, setup values and secret digest; undefined for none. */
export async function hookOf(db: Db, hookId: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(hookId)) return undefined;
  return db
    .selectFrom("integrations")
    .select(["org_id", "properties", "hook_secret_digest"])
    .where("hook_id", "=", hookId)
    .where("name", "=", AZURE_DEVOPS_INTEGRATION)
    .where("is_active", "=", true)
    .executeTakeFirst();
}
