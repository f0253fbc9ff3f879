/**
 * Row types of every table, as Kysely sees them. Migrations (migrations.ts) create the tables;
 * a new table means a migration plus an interface here plus an entry in `Database`.
 */
import type { ColumnType, Generated } from "kysely";
import type { Provider } from "../../shared/contract/accounts.ts";
import type { ModelKind } from "../../shared/contract/ai-model.ts";
import type { PlanCode, SubscriptionStatus } from "../../shared/contract/billing.ts";
import type { Finding, RunAiOutcome } from "../../shared/contract/reviews.ts";
import type { InvalidTeamRule, TeamRule } from "../../shared/contract/settings.ts";
import type {
  BotCommand,
  FindingDelivery,
  NotPostedReason,
  PostedDelivery,
  ReviewRunStatus,
  ReviewTrigger,
} from "../review/model.ts";

/** Set by the database on insert, never updated. */
type CreatedAt = ColumnType<Date, never, never>;

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  created_at: CreatedAt;
}

/**
 * `role` defaults to "user" (least privilege for members added later); the person whose first
 * sign-in creates an organisation becomes its "owner".
 */
export interface UsersTable {
  id: Generated<string>;
  firebase_uid: string;
  /** Stored lower-case; unique. */
  email: string;
  name: string;
  role: ColumnType<string, string | undefined, string>;
  org_id: string;
  /** How the account was first created. */
  provider: Provider;
  avatar_url: string | null;
  created_at: CreatedAt;
}

/** One row per sign-in; its id is the `sid` claim of every token of that session. */
export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  provider: Provider;
  /** The sign-in that began the session; refreshes never move it. */
  auth_time: ColumnType<Date, Date, never>;
  created_at: CreatedAt;
  revoked_at: ColumnType<Date | null, never, Date>;
}

/** Session-token signing keys (ES256 mode); `use` is unique so concurrent starts agree on one key. */
export interface SigningKeysTable {
  kid: string;
  use: string;
  algorithm: string;
  /** JWK as JSON text. */
  public_jwk: string;
  /** JWK as JSON text. Secret: whoever reads it can mint sessions. */
  private_jwk: string;
  created_at: CreatedAt;
}

export interface ProjectProperties {
  full_name?: string;
  private?: boolean;
  description?: string | null;
  default_branch?: string;
  fork?: boolean;
  sandbox?: boolean;
}

/** Repositories of an organisation, as seen through one integration. */
export interface ProjectsTable {
  id: Generated<string>;
  org_id: string;
  name: string;
  integration_key: string;
  integration_name: string;
  integration_type: string;
  external_link: string;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  webhook_active: ColumnType<boolean, boolean | undefined, boolean>;
  /** jsonb; written as JSON text. */
  properties: ColumnType<ProjectProperties, string | undefined, string>;
  /** The code host's id of the repository (null for rows made before imports existed). */
  external_id: ColumnType<string | null, string | undefined, string>;
  created_at: CreatedAt;
}

/**
 * An organisation's set-up integration. `integration_key` names the connection at the code host
 * (GitHub: the installation id). `properties` holds the non-secret setup values, `secrets` the
 * secret ones (never sent in an answer).
 */
export interface IntegrationsTable {
  id: Generated<string>;
  org_id: string;
  name: string;
  integration_key: string;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  /** jsonb; written as JSON text. */
  properties: ColumnType<Record<string, string>, string | undefined, string>;
  /** jsonb; written as JSON text. Secret. */
  secrets: ColumnType<Record<string, string>, string | undefined, string>;
  /** Azure DevOps: the id in its service hook's URL; null until a hook secret was generated. */
  hook_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Azure DevOps: the SHA-256 (hex) of its service hook's secret; the secret is never stored. */
  hook_secret_digest: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/**
 * A signup whose address is not verified yet: no user or organisation exists until the first
 * verified sign-in of this Firebase identity creates them from this profile (auth/accounts.ts).
 */
export interface PendingSignupsTable {
  firebase_uid: string;
  /** Lower-case. */
  email: string;
  name: string;
  company: string;
  source: string;
  created_at: CreatedAt;
}

/** The local outbox (mail/outbox.ts): e-mails kept instead of sent, the latest few hundred. */
export interface OutboxMessagesTable {
  id: Generated<string>;
  recipient: string;
  subject: string;
  text: string;
  /** jsonb array of URLs; written as JSON text. */
  links: ColumnType<string[], string, never>;
  sent_at: CreatedAt;
}

/**
 * Webhook deliveries already applied: GitHub's by their X-GitHub-Delivery id, Azure DevOps' by
 * `ado:` and the event id.
 */
export interface WebhookDeliveriesTable {
  id: string;
  event: string;
  /** What the delivery did: queued, coalesced, or ignored and why. */
  outcome: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 (hex) of a GitHub delivery's signed body: the same body counts once, whatever its id. */
  payload_digest: ColumnType<string | null, string | null | undefined, string | null>;
  received_at: CreatedAt;
}

type Timestamp = ColumnType<Date, Date | undefined, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;
type NullableText = ColumnType<string | null, string | null | undefined, string | null>;
type NullableInteger = ColumnType<number | null, number | null | undefined, number | null>;

/**
 * An organisation's plan. `seats_allocated` counts the contributors holding a seat; the database
 * keeps it within 0..seats_total.
 */
export interface SubscriptionsTable {
  org_id: string;
  plan_code: PlanCode;
  status: SubscriptionStatus;
  seats_total: ColumnType<number, number | undefined, number>;
  seats_allocated: ColumnType<number, number | undefined, number>;
  trial_ends_at: NullableTimestamp;
  current_period_end: NullableTimestamp;
  converted_to_active: ColumnType<boolean, boolean | undefined, boolean>;
  /** A cancellation scheduled for this date (period end); null when none. */
  cancel_at: NullableTimestamp;
  /** A seat or plan change paid for at checkout and not yet confirmed. */
  pending_quantity: ColumnType<number | null, number | null | undefined, number | null>;
  pending_plan_code: ColumnType<PlanCode | null, PlanCode | null | undefined, PlanCode | null>;
  credit_balance_cents: ColumnType<number, number | undefined, number>;
  stripe_customer_id: ColumnType<string | null, string | null | undefined, string | null>;
  stripe_subscription_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When Stripe created the last subscription event applied here; an older one is not applied. */
  stripe_event_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A checkout (`kind` checkout) or seat change (`kind` update), at Stripe or in the sandbox. */
export interface PaymentSessionsTable {
  /** Stripe's checkout session id, or the sandbox's. */
  id: string;
  org_id: string;
  kind: "checkout" | "update";
  plan_code: PlanCode;
  quantity: number;
  /** Per seat and month, minor units. */
  unit_amount: number;
  currency: string;
  customer_email: string;
  status: "open" | "complete" | "expired";
  /** Set by the one validation that applied the session. */
  processed_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** Stripe webhook events already applied, by event id. */
export interface BillingEventsTable {
  id: string;
  type: string;
  received_at: CreatedAt;
}

/** Someone active on the organisation's repositories; holds a seat while `seat_id` is set. */
export interface ContributorsTable {
  id: Generated<string>;
  org_id: string;
  platform_type: string;
  /** The code host's username. */
  platform_id: string;
  name: string;
  email: ColumnType<string | null, string | null | undefined, string | null>;
  avatar_url: ColumnType<string | null, string | null | undefined, string | null>;
  role: ColumnType<string | null, string | null | undefined, string | null>;
  last_git_activity: NullableTimestamp;
  seat_id: ColumnType<string | null, string | null | undefined, string | null>;
  seat_assigned_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/**
 * One review of a pull request. At most one run per pull request is queued and one running (partial
 * unique indexes); events arriving while a run is queued update it (coalescing), so the head it
 * reviews is the latest one known when it starts.
 */
export interface ReviewRunsTable {
  id: Generated<string>;
  org_id: string;
  project_id: string;
  pull_request: number;
  status: ColumnType<ReviewRunStatus, ReviewRunStatus | undefined, ReviewRunStatus>;
  trigger: ReviewTrigger;
  command: ColumnType<BotCommand | null, BotCommand | null | undefined, BotCommand | null>;
  /** Null when the event did not say (a comment command): the pipeline reads it from the code host. */
  head_sha: ColumnType<string | null, string | null | undefined, string | null>;
  base_sha: ColumnType<string | null, string | null | undefined, string | null>;
  /** The delivery that queued the run, or the latest one coalesced into it. */
  delivery_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why the run failed or was skipped. */
  reason: ColumnType<string | null, string | null | undefined, string | null>;
  findings_total: ColumnType<number | null, number | null | undefined, number | null>;
  findings_posted: ColumnType<number | null, number | null | undefined, number | null>;
  queued_at: ColumnType<Date, Date | undefined, Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  /** The AI pass (migration 0011): null on a run without one. */
  ai_outcome: ColumnType<RunAiOutcome | null, RunAiOutcome | null | undefined, RunAiOutcome | null>;
  ai_model: NullableText;
  ai_input_tokens: NullableInteger;
  ai_output_tokens: NullableInteger;
  /** Micro-dollars; null when no price is known for the model. */
  ai_cost_micros: NullableInteger;
  /** Why the pass failed or was skipped, or that its cost is unknown. */
  ai_note: NullableText;
  /** When the pass spent its tokens: the monthly budget sums by it. */
  ai_at: NullableTimestamp;
}

/** A run's decision log; `id` orders it. `detail` is jsonb, written as JSON text. */
export interface ReviewDecisionsTable {
  id: Generated<number>;
  run_id: string;
  step: string;
  outcome: string;
  detail: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: CreatedAt;
}

/** Category values as stored: key → value, only the keys set at that level. */
export type StoredSettingValues = Record<string, unknown>;

/**
 * An organisation's values of one setting category for one code host (`integration_name`, a name
 * of backend/code-hosts/catalogue.ts): docs/decisions/010-review-settings.md.
 */
export interface OrganizationSettingsTable {
  org_id: string;
  integration_name: string;
  category: string;
  /** jsonb; written as JSON text. */
  value: ColumnType<StoredSettingValues, string, string>;
  updated_at: Timestamp;
}

/** A repository's own values of one setting category; the keys it lacks come from its organisation. */
export interface RepositorySettingsTable {
  project_id: string;
  category: string;
  /** jsonb; written as JSON text. */
  value: ColumnType<StoredSettingValues, string, string>;
  updated_at: Timestamp;
}

/** What the review engine remembers of a pull request between runs (migration 0008). */
export interface ReviewPullRequestsTable {
  project_id: string;
  pull_request: number;
  paused: ColumnType<boolean, boolean | undefined, boolean>;
  /** The head the last posted review covered; the next incremental review starts there. */
  last_reviewed_sha: ColumnType<string | null, string | null | undefined, string | null>;
  title: ColumnType<string | null, string | null | undefined, string | null>;
  url: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** A finding of a run and its delivery; `finding` is jsonb (shared/contract/reviews.ts), written as JSON text. */
export interface ReviewFindingsTable {
  id: Generated<number>;
  run_id: string;
  fingerprint: string;
  delivery: FindingDelivery;
  /** Where a shadow finding would have gone; null for any other delivery (migration 0012). */
  shadow_delivery: ColumnType<PostedDelivery | null, PostedDelivery | null | undefined, never>;
  /** Why a finding was not posted; null for any other delivery and for older runs (migration 0023). */
  not_posted_reason: ColumnType<NotPostedReason | null, NotPostedReason | null | undefined, never>;
  finding: ColumnType<Finding, string, never>;
}

/** A sandbox repository's commit: its whole tree, path → text (jsonb, written as JSON text). */
export interface SandboxCommitsTable {
  project_id: string;
  sha: string;
  parent_sha: string | null;
  tree: ColumnType<Record<string, string>, string, never>;
  created_at: CreatedAt;
}

export interface SandboxPullRequestsTable {
  id: Generated<string>;
  org_id: string;
  project_id: string;
  number: number;
  title: string;
  author: string;
  base_sha: string;
  head_sha: string;
  head_ref: string;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SandboxReviewsTable {
  id: Generated<number>;
  pull_request_id: string;
  kind: "review" | "comment";
  commit_id: string | null;
  body: string;
  /** Who commented (migration 0019_sandbox_pull_comments); null for what the review engine posted. */
  author: ColumnType<string | null, string | null | undefined, never>;
  created_at: CreatedAt;
}

export interface SandboxReviewCommentsTable {
  id: Generated<number>;
  review_id: number;
  path: string;
  line: number;
  side: ColumnType<"RIGHT", "RIGHT" | undefined, never>;
  commit_id: string;
  body: string;
  /** When the review engine resolved it, its finding fixed; null while open (migration 0024). */
  resolved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The review's check on a sandbox pull request's head commit (migration 0026_sandbox_checks). */
export interface SandboxChecksTable {
  id: Generated<number>;
  pull_request_id: string;
  name: string;
  head_sha: string;
  /** Null while the review runs. */
  conclusion: "success" | "neutral" | "skipped" | null;
  title: string;
  summary: string;
  details_url: string;
  started_at: CreatedAt;
  completed_at: Date | null;
}

/** A fingerprint's 👍 and 👎 in one repository (migration 0013_finding_feedback). */
export interface FindingFeedbackTable {
  project_id: string;
  fingerprint: string;
  /** The pull request the counts were read from. */
  pull_request: number;
  thumbs_up: number;
  thumbs_down: number;
  /** When a 👎 was first seen: the fingerprint is not posted in the repository from then on. */
  suppressed_at: Date | null;
  /** The 👎 count when someone posted it again; a 👎 beyond it suppresses it again (migration 0025). */
  released_thumbs_down: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** One person's 👍 or 👎 on a sandbox review comment. */
export interface SandboxCommentReactionsTable {
  comment_id: number;
  user_id: string;
  content: "+1" | "-1";
  created_at: CreatedAt;
}

/**
 * An organisation's AI model (docs/decisions/018-ai-model-settings.md); `api_key_ciphertext` is
 * sealed by backend/secrets/secret-box.ts, null when the model takes no key.
 */
export interface AiModelsTable {
  org_id: string;
  kind: ModelKind;
  base_url: string | null;
  model: string;
  api_key_ciphertext: string | null;
  input_token_limit: number;
  monthly_budget_cents: number | null;
  updated_at: Timestamp;
}

/**
 * An organisation's calls to its AI model in one fixed window, by purpose (migration
 * 0018_model_call_limits; backend/ai-models/call-limits.ts).
 */
export interface ModelCallWindowsTable {
  org_id: string;
  purpose: "test" | "review";
  window_start: Date;
  calls: number;
}

/** Hits on the gateways' /auth rate limit per client key and window (migration 0021). */
export interface AuthRateLimitWindowsTable {
  key: string;
  window_start: Date;
  hits: number;
}

/**
 * A counter per organisation that every committed write to its cached rows (projects,
 * subscriptions, settings, repository rules) moves, by deferred triggers (migration
 * 0022_read_versions, docs/decisions/045-read-versions.md). Only triggers write it.
 */
export interface ReadVersionsTable {
  org_id: string;
  /** bigint; read as text. */
  version: ColumnType<string, never, never>;
}

/**
 * The team rules a repository's latest review read from its base commit (migration
 * 0017_rule_settings): those loaded and those refused; `rules` and `invalid` are jsonb, written as
 * JSON text.
 */
export interface RepositoryRulesTable {
  project_id: string;
  folder: string;
  base_sha: string;
  rules: ColumnType<TeamRule[], string, string>;
  invalid: ColumnType<InvalidTeamRule[], string, string>;
  read_at: Timestamp;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  signing_keys: SigningKeysTable;
  projects: ProjectsTable;
  integrations: IntegrationsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  pending_signups: PendingSignupsTable;
  outbox_messages: OutboxMessagesTable;
  subscriptions: SubscriptionsTable;
  payment_sessions: PaymentSessionsTable;
  billing_events: BillingEventsTable;
  contributors: ContributorsTable;
  review_runs: ReviewRunsTable;
  review_decisions: ReviewDecisionsTable;
  organization_settings: OrganizationSettingsTable;
  repository_settings: RepositorySettingsTable;
  review_pull_requests: ReviewPullRequestsTable;
  review_findings: ReviewFindingsTable;
  sandbox_commits: SandboxCommitsTable;
  sandbox_pull_requests: SandboxPullRequestsTable;
  sandbox_reviews: SandboxReviewsTable;
  sandbox_review_comments: SandboxReviewCommentsTable;
  sandbox_checks: SandboxChecksTable;
  ai_models: AiModelsTable;
  model_call_windows: ModelCallWindowsTable;
  finding_feedback: FindingFeedbackTable;
  sandbox_comment_reactions: SandboxCommentReactionsTable;
  repository_rules: RepositoryRulesTable;
  auth_rate_limit_windows: AuthRateLimitWindowsTable;
  read_versions: ReadVersionsTable;
}
