/**
 * Schema migrations, in code so they ship with the backend and run at start-up. Migrations are
 * forward-only and frozen once released: change the schema by appending a new entry, never by
 * editing an old one. They take `Kysely<unknown>` on purpose: they must not depend on today's
 * row types in schema.ts.
 */
import { type Kysely, type Migration, Migrator } from "kysely";
import { identityAndSessions } from "./migrations/0001-identity-and-sessions.ts";
import { pendingSignupsAndOutbox } from "./migrations/0002-pending-signups-and-outbox.ts";
import { integrations } from "./migrations/0003-integrations.ts";
import { webhookDeliveries } from "./migrations/0004-webhook-deliveries.ts";
import { billingAndSeats } from "./migrations/0005-billing-and-seats.ts";
import { reviewSettings } from "./migrations/0006-review-settings.ts";
import { reviewEngine } from "./migrations/0007-review-engine.ts";
import { reviewPullRequests } from "./migrations/0008-review-pull-requests.ts";
import { sandboxPullRequests } from "./migrations/0009-sandbox-pull-requests.ts";
import { aiModels } from "./migrations/0010-ai-models.ts";
import { aiReviewUsage } from "./migrations/0011-ai-review-usage.ts";
import { severityThreshold } from "./migrations/0012-severity-threshold.ts";
import { findingFeedback } from "./migrations/0013-finding-feedback.ts";
import { webhookPayloadDigest } from "./migrations/0014-webhook-payload-digest.ts";
import { azureDevopsHooks } from "./migrations/0015-azure-devops-hooks.ts";
import { stripeEventOrder } from "./migrations/0016-stripe-event-order.ts";
import { ruleSettings } from "./migrations/0017-rule-settings.ts";
import { modelCallLimits } from "./migrations/0018-model-call-limits.ts";
import { sandboxPullComments } from "./migrations/0019-sandbox-pull-comments.ts";
import { largeOrganisations } from "./migrations/0020-large-organisations.ts";
import { scaleOut } from "./migrations/0021-scale-out.ts";
import { readVersions } from "./migrations/0022-read-versions.ts";
import { notPostedReason } from "./migrations/0023-not-posted-reason.ts";
import { resolvedSandboxComments } from "./migrations/0024-resolved-sandbox-comments.ts";
import { releasedSuppressions } from "./migrations/0025-released-suppressions.ts";
import { sandboxChecks } from "./migrations/0026-sandbox-checks.ts";
import { findingRecordsByFingerprint } from "./migrations/0027-finding-records-by-fingerprint.ts";
import { pullRequestTitlesSearched } from "./migrations/0028-pull-request-titles-searched.ts";

/** Every migration by the name the database records (never rename one), in order; exported so tests can stop at one. */
export const migrations: Record<string, Migration> = {
  "0001_identity_and_sessions": identityAndSessions,
  "0002_pending_signups_and_outbox": pendingSignupsAndOutbox,
  "0003_integrations": integrations,
  "0004_webhook_deliveries": webhookDeliveries,
  "0005_billing_and_seats": billingAndSeats,
  "0006_review_settings": reviewSettings,
  "0007_review_engine": reviewEngine,
  "0008_review_pull_requests": reviewPullRequests,
  "0009_sandbox_pull_requests": sandboxPullRequests,
  "0010_ai_models": aiModels,
  "0011_ai_review_usage": aiReviewUsage,
  "0012_severity_threshold": severityThreshold,
  "0013_finding_feedback": findingFeedback,
  "0014_webhook_payload_digest": webhookPayloadDigest,
  "0015_azure_devops_hooks": azureDevopsHooks,
  "0016_stripe_event_order": stripeEventOrder,
  "0017_rule_settings": ruleSettings,
  "0018_model_call_limits": modelCallLimits,
  "0019_sandbox_pull_comments": sandboxPullComments,
  "0020_large_organisations": largeOrganisations,
  "0021_scale_out": scaleOut,
  "0022_read_versions": readVersions,
  "0023_not_posted_reason": notPostedReason,
  "0024_resolved_sandbox_comments": resolvedSandboxComments,
  "0025_released_suppressions": releasedSuppressions,
  "0026_sandbox_checks": sandboxChecks,
  "0027_finding_records_by_fingerprint": findingRecordsByFingerprint,
  "0028_pull_request_titles_searched": pullRequestTitlesSearched,
};

/** Applies every pending migration; safe to call on every start (applied ones are skipped). */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === "Error")?.migrationName;
    throw new Error(failed ? `Database migration ${failed} failed` : "Database migration failed", {
      cause: error,
    });
  }
}
