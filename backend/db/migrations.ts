/**
 * Schema migrations, in code so they ship with the backend and run at start-up. Migrations are
 * forward-only and frozen once released: change the schema by appending a new entry, never by
 * editing an old one. They take `Kysely<unknown>` on purpose: they must not depend on today's
 * row types in schema.ts.
 */
import { type Kysely, type Migration, Migrator, sql } from "kysely";
import { DEFAULT_TRIAL_DAYS, PLAN_VALUES, TRIAL_SEATS } from "../../shared/constants.ts";

/** Every migration by name, in order; exported so tests can stop at one. */
export const migrations: Record<string, Migration> = {
  "0001_identity_and_sessions": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("organizations")
        .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();

      await db.schema
        .createTable("users")
        .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn("firebase_uid", "text", (c) => c.notNull().unique())
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("role", "text", (c) => c.notNull().defaultTo("user"))
        .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("avatar_url", "text")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex("users_org_id_idx").on("users").column("org_id").execute();

      await db.schema
        .createTable("sessions")
        .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("auth_time", "timestamptz", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("revoked_at", "timestamptz")
        .execute();
      await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();

      await db.schema
        .createTable("signing_keys")
        .addColumn("kid", "text", (c) => c.primaryKey())
        .addColumn("use", "text", (c) => c.notNull().unique())
        .addColumn("algorithm", "text", (c) => c.notNull())
        .addColumn("public_jwk", "text", (c) => c.notNull())
        .addColumn("private_jwk", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();

      await db.schema
        .createTable("projects")
        .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("integration_key", "text", (c) => c.notNull())
        .addColumn("integration_name", "text", (c) => c.notNull())
        .addColumn("integration_type", "text", (c) => c.notNull())
        .addColumn("external_link", "text", (c) => c.notNull())
        .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
        .addColumn("webhook_active", "boolean", (c) => c.notNull().defaultTo(false))
        .addColumn("properties", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createIndex("projects_org_integration_idx")
        .on("projects")
        .columns(["org_id", "integration_name", "integration_type"])
        .execute();
    },
  },
  "0002_pending_signups_and_outbox": {
    async up(db: Kysely<unknown>) {
      // A signup's profile waits here, keyed by its Firebase identity, until the address is verified.
      await db.schema
        .createTable("pending_signups")
        .addColumn("firebase_uid", "text", (c) => c.primaryKey())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("company", "text", (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();

      // clock_timestamp(), not now(): two messages of one transaction still sort in sending order.
      await db.schema
        .createTable("outbox_messages")
        .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn("recipient", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("links", "jsonb", (c) => c.notNull())
        .addColumn("sent_at", "timestamptz", (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
        .execute();
      await db.schema
        .createIndex("outbox_messages_sent_at_idx")
        .on("outbox_messages")
        .column("sent_at")
        .execute();
    },
  },
  "0003_integrations": {
    async up(db: Kysely<unknown>) {
      // One row per organisation and integration of the catalogue (backend/integrations/catalogue.ts).
      // `secrets` holds the setup values of secret fields; answers only say whether they are set.
      await db.schema
        .createTable("integrations")
        .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("integration_key", "text", (c) => c.notNull())
        .addColumn("is_active", "boolean", (c) => c.notNull().defaultTo(true))
        .addColumn("properties", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn("secrets", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint("integrations_org_name_key", ["org_id", "name"])
        .execute();
      // Webhooks name an installation, not an organisation.
      await db.schema
        .createIndex("integrations_name_key_idx")
        .on("integrations")
        .columns(["name", "integration_key"])
        .execute();

      // The code host's own id of a repository: importing the same repository again updates its row.
      await db.schema.alterTable("projects").addColumn("external_id", "text").execute();
      await db.schema
        .createIndex("projects_org_integration_external_id_key")
        .on("projects")
        .columns(["org_id", "integration_name", "external_id"])
        .unique()
        .execute();
    },
  },
  "0004_webhook_deliveries": {
    async up(db: Kysely<unknown>) {
      // GitHub may deliver an event again (redelivery, retries); its X-GitHub-Delivery id is kept so
      // a delivery takes effect once.
      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("event", "text", (c) => c.notNull())
        .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  "0005_billing_and_seats": {
    async up(db: Kysely<unknown>) {
      // One subscription per organisation. The seat counter lives on this row so that an assign
      // is one conditional UPDATE under the row lock; the checks keep it within 0..seats_total
      // whatever the code above does.
      await db.schema
        .createTable("subscriptions")
        .addColumn("org_id", "uuid", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
        .addColumn("plan_code", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("seats_total", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("seats_allocated", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("trial_ends_at", "timestamptz")
        .addColumn("current_period_end", "timestamptz")
        .addColumn("converted_to_active", "boolean", (c) => c.notNull().defaultTo(false))
        .addColumn("cancel_at", "timestamptz")
        .addColumn("pending_quantity", "integer")
        .addColumn("pending_plan_code", "text")
        .addColumn("credit_balance_cents", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("stripe_customer_id", "text")
        .addColumn("stripe_subscription_id", "text", (c) => c.unique())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addCheckConstraint(
          "subscriptions_seats_allocated_range",
          sql`seats_allocated between 0 and seats_total`,
        )
        .execute();

      // Checkout and seat-update sessions, Stripe's or the sandbox's; `processed_at` makes applying
      // one idempotent.
      await db.schema
        .createTable("payment_sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("plan_code", "text", (c) => c.notNull())
        .addColumn("quantity", "integer", (c) => c.notNull())
        .addColumn("unit_amount", "integer", (c) => c.notNull())
        .addColumn("currency", "text", (c) => c.notNull())
        .addColumn("customer_email", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("processed_at", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createIndex("payment_sessions_org_id_idx")
        .on("payment_sessions")
        .column("org_id")
        .execute();

      // Stripe events already applied, by event id: a replayed delivery changes nothing.
      await db.schema
        .createTable("billing_events")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();

      // People active on the organisation's repositories, imported or added by username. A seat is
      // held while `seat_id` is set; subscriptions.seats_allocated counts them.
      await db.schema
        .createTable("contributors")
        .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("platform_type", "text", (c) => c.notNull())
        .addColumn("platform_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("email", "text")
        .addColumn("avatar_url", "text")
        .addColumn("role", "text")
        .addColumn("last_git_activity", "timestamptz")
        .addColumn("seat_id", "uuid")
        .addColumn("seat_assigned_at", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint("contributors_org_platform_key", ["org_id", "platform_type", "platform_id"])
        .execute();

      // Organisations made before billing start the Pro trial a new one gets (billing/subscriptions.ts),
      // with the default length: the migration cannot read TRIAL_DAYS.
      await sql`
        insert into subscriptions (org_id, plan_code, status, seats_total, trial_ends_at)
        select id, ${sql.lit(PLAN_VALUES.proTrial)}, 'trialing', ${sql.lit(TRIAL_SEATS)},
          now() + make_interval(days => ${sql.lit(DEFAULT_TRIAL_DAYS)})
        from organizations
      `.execute(db);
    },
  },
  "0006_review_settings": {
    async up(db: Kysely<unknown>) {
      // Review settings (docs/decisions/010-review-settings.md), one row per category and level: the
      // category's values as a JSON object, key → value, holding only the keys set at that level.
      // An organisation keeps one set per code host; a repository inherits its code host's set.
      await db.schema
        .createTable("organization_settings")
        .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("integration_name", "text", (c) => c.notNull())
        .addColumn("category", "text", (c) => c.notNull())
        .addColumn("value", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("organization_settings_pkey", ["org_id", "integration_name", "category"])
        .execute();
      // A repository's own values go with it when its project row goes.
      await db.schema
        .createTable("repository_settings")
        .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("category", "text", (c) => c.notNull())
        .addColumn("value", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("repository_settings_pkey", ["project_id", "category"])
        .execute();
    },
  },
  "0007_review_engine": {
    async up(db: Kysely<unknown>) {
      // What a delivery did (queued, coalesced, ignored and why): an event for a repository we do
      // not know is acknowledged, and this says so.
      await db.schema.alterTable("webhook_deliveries").addColumn("outcome", "text").execute();

      // One review of a pull request at one head. The partial unique indexes hold what the queue
      // promises: at most one queued and one running run per pull request, so a push during a
      // review updates the queued run instead of stacking another.
      await db.schema
        .createTable("review_runs")
        .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("pull_request", "integer", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
        .addColumn("trigger", "text", (c) => c.notNull())
        .addColumn("command", "text")
        .addColumn("head_sha", "text")
        .addColumn("base_sha", "text")
        .addColumn("delivery_id", "text")
        .addColumn("reason", "text")
        .addColumn("findings_total", "integer")
        .addColumn("findings_posted", "integer")
        .addColumn("queued_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("started_at", "timestamptz")
        .addColumn("finished_at", "timestamptz")
        .addCheckConstraint(
          "review_runs_status",
          sql`status in ('queued', 'running', 'succeeded', 'failed', 'skipped')`,
        )
        .execute();
      await db.schema
        .createIndex("review_runs_one_queued")
        .on("review_runs")
        .columns(["project_id", "pull_request"])
        .unique()
        .where(sql.ref("status"), "=", "queued")
        .execute();
      await db.schema
        .createIndex("review_runs_one_running")
        .on("review_runs")
        .columns(["project_id", "pull_request"])
        .unique()
        .where(sql.ref("status"), "=", "running")
        .execute();
      await db.schema
        .createIndex("review_runs_pull_request_idx")
        .on("review_runs")
        .columns(["project_id", "pull_request", "queued_at"])
        .execute();

      // The run's decision log, in order (`id`): each step, its outcome and the details behind it.
      await db.schema
        .createTable("review_decisions")
        .addColumn("id", "serial", (c) => c.primaryKey())
        .addColumn("run_id", "uuid", (c) => c.notNull().references("review_runs.id").onDelete("cascade"))
        .addColumn("step", "text", (c) => c.notNull())
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("detail", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createIndex("review_decisions_run_id_idx")
        .on("review_decisions")
        .columns(["run_id", "id"])
        .execute();
    },
  },
  "0008_review_pull_requests": {
    async up(db: Kysely<unknown>) {
      // What the review engine remembers of a pull request between runs: paused by `@bot pause`,
      // the head it last reviewed (the next review starts there), and its title and link for the
      // run pages.
      await db.schema
        .createTable("review_pull_requests")
        .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("pull_request", "integer", (c) => c.notNull())
        .addColumn("paused", "boolean", (c) => c.notNull().defaultTo(false))
        .addColumn("last_reviewed_sha", "text")
        .addColumn("title", "text")
        .addColumn("url", "text")
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("review_pull_requests_pkey", ["project_id", "pull_request"])
        .execute();

      // Every finding of a run and what became of it; written with the review it was posted in,
      // so a retried run sees what it already posted.
      await db.schema
        .createTable("review_findings")
        .addColumn("id", "serial", (c) => c.primaryKey())
        .addColumn("run_id", "uuid", (c) => c.notNull().references("review_runs.id").onDelete("cascade"))
        .addColumn("fingerprint", "text", (c) => c.notNull())
        .addColumn("delivery", "text", (c) => c.notNull())
        .addColumn("finding", "jsonb", (c) => c.notNull())
        .addUniqueConstraint("review_findings_run_fingerprint", ["run_id", "fingerprint"])
        .addCheckConstraint(
          "review_findings_delivery",
          sql`delivery in ('inline', 'summary', 'duplicate', 'not_posted')`,
        )
        .execute();
      await db.schema
        .createIndex("review_runs_org_queued_idx")
        .on("review_runs")
        .columns(["org_id", "queued_at"])
        .execute();
    },
  },
  "0009_sandbox_pull_requests": {
    async up(db: Kysely<unknown>) {
      // The sandbox code host's commits: a whole tree (path → text) each, since its files are a few
      // small samples. The sha is a hash of the parent and the tree.
      await db.schema
        .createTable("sandbox_commits")
        .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("sha", "text", (c) => c.notNull())
        .addColumn("parent_sha", "text")
        .addColumn("tree", "jsonb", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("sandbox_commits_pk", ["project_id", "sha"])
        .execute();
      // A pull request of a sandbox repository, numbered per repository as GitHub numbers them.
      await db.schema
        .createTable("sandbox_pull_requests")
        .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("number", "integer", (c) => c.notNull())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("author", "text", (c) => c.notNull())
        .addColumn("base_sha", "text", (c) => c.notNull())
        .addColumn("head_sha", "text", (c) => c.notNull())
        .addColumn("head_ref", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint("sandbox_pull_requests_number", ["project_id", "number"])
        .execute();
      // What was posted on a pull request, as GitHub holds it: a review (its body, the commit it is
      // about) with its line comments, or a plain comment.
      await db.schema
        .createTable("sandbox_reviews")
        .addColumn("id", "serial", (c) => c.primaryKey())
        .addColumn("pull_request_id", "uuid", (c) =>
          c.notNull().references("sandbox_pull_requests.id").onDelete("cascade"),
        )
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("commit_id", "text")
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addCheckConstraint("sandbox_reviews_kind", sql`kind in ('review', 'comment')`)
        .execute();
      await db.schema
        .createTable("sandbox_review_comments")
        .addColumn("id", "serial", (c) => c.primaryKey())
        .addColumn("review_id", "integer", (c) =>
          c.notNull().references("sandbox_reviews.id").onDelete("cascade"),
        )
        .addColumn("path", "text", (c) => c.notNull())
        .addColumn("line", "integer", (c) => c.notNull())
        .addColumn("side", "text", (c) => c.notNull().defaultTo("RIGHT"))
        .addColumn("commit_id", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("sandbox_review_comments_review_idx")
        .on("sandbox_review_comments")
        .column("review_id")
        .execute();
    },
  },
  "0010_ai_models": {
    async up(db: Kysely<unknown>) {
      // An organisation's AI model (docs/decisions/018-ai-model-settings.md): one row, none for the
      // built-in reviewer alone. The API key is stored sealed (backend/secrets/secret-box.ts), never plain.
      await db.schema
        .createTable("ai_models")
        .addColumn("org_id", "uuid", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("base_url", "text")
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("api_key_ciphertext", "text")
        .addColumn("input_token_limit", "integer", (c) => c.notNull())
        .addColumn("monthly_budget_cents", "integer")
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addCheckConstraint("ai_models_input_token_limit", sql`input_token_limit > 0`)
        .addCheckConstraint("ai_models_monthly_budget_cents", sql`monthly_budget_cents >= 0`)
        .execute();
    },
  },
  "0011_ai_review_usage": {
    async up(db: Kysely<unknown>) {
      // A run's AI pass: how it ended, the model, the tokens and the cost (micro-dollars; null when
      // no price is known), and when it was spent (the injected clock), which the monthly budget
      // sums by. Written once per run, so a run started again never counts twice.
      await db.schema
        .alterTable("review_runs")
        .addColumn("ai_outcome", "text")
        .addColumn("ai_model", "text")
        .addColumn("ai_input_tokens", "integer")
        .addColumn("ai_output_tokens", "integer")
        .addColumn("ai_cost_micros", "integer")
        .addColumn("ai_note", "text")
        .addColumn("ai_at", "timestamptz")
        .execute();
      await db.schema
        .createIndex("review_runs_ai_spend_idx")
        .on("review_runs")
        .columns(["org_id", "ai_at"])
        .where(sql.ref("ai_at"), "is not", null)
        .execute();
    },
  },
  "0012_severity_threshold": {
    async up(db: Kysely<unknown>) {
      // The on/off `comment_style.minor_findings` became the choice `severity_threshold`
      // (docs/decisions/020-setting-kinds-and-shadow-mode.md): on was "minor and above", off the
      // default "major and above". Only a boolean converts; a value set under the new key stays.
      for (const table of ["organization_settings", "repository_settings"]) {
        await sql`
          update ${sql.table(table)}
          set value = case jsonb_typeof(value -> 'minor_findings')
              when 'boolean' then jsonb_build_object(
                'severity_threshold',
                case when (value ->> 'minor_findings')::boolean then 'minor' else 'major' end
              )
              else '{}'::jsonb
            end || (value - 'minor_findings'),
            updated_at = now()
          where category = 'comment_style' and value ? 'minor_findings'
        `.execute(db);
      }

      // Shadow mode: a finding that would have been posted is recorded as "shadow", with where it
      // would have gone (inline or in the summary).
      await db.schema.alterTable("review_findings").dropConstraint("review_findings_delivery").execute();
      await db.schema
        .alterTable("review_findings")
        .addCheckConstraint(
          "review_findings_delivery",
          sql`delivery in ('inline', 'summary', 'duplicate', 'not_posted', 'shadow')`,
        )
        .execute();
      await db.schema.alterTable("review_findings").addColumn("shadow_delivery", "text").execute();
      await db.schema
        .alterTable("review_findings")
        .addCheckConstraint(
          "review_findings_shadow_delivery",
          sql`(delivery = 'shadow') = (shadow_delivery is not null) and shadow_delivery in ('inline', 'summary')`,
        )
        .execute();
    },
  },
  "0013_finding_feedback": {
    async up(db: Kysely<unknown>) {
      // People's 👍 and 👎 on a posted finding, per repository and fingerprint, as a run last read
      // them from the code host on `pull_request`. `suppressed_at`: when a 👎 was first seen; from
      // then on the fingerprint is not posted in this repository (decision 021), even if the 👎 is
      // taken back.
      await db.schema
        .createTable("finding_feedback")
        .addColumn("project_id", "uuid", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("fingerprint", "text", (c) => c.notNull())
        .addColumn("pull_request", "integer", (c) => c.notNull())
        .addColumn("thumbs_up", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("thumbs_down", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("suppressed_at", "timestamptz")
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("finding_feedback_pkey", ["project_id", "fingerprint"])
        .execute();
      await db.schema.alterTable("review_findings").dropConstraint("review_findings_delivery").execute();
      await db.schema
        .alterTable("review_findings")
        .addCheckConstraint(
          "review_findings_delivery",
          sql`delivery in ('inline', 'summary', 'duplicate', 'not_posted', 'shadow', 'suppressed')`,
        )
        .execute();
      // The sandbox code host's reactions on its review comments, one per person and content, as
      // GitHub keeps them.
      await db.schema
        .createTable("sandbox_comment_reactions")
        .addColumn("comment_id", "integer", (c) =>
          c.notNull().references("sandbox_review_comments.id").onDelete("cascade"),
        )
        .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("content", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("sandbox_comment_reactions_pkey", ["comment_id", "user_id", "content"])
        .addCheckConstraint("sandbox_comment_reactions_content", sql`content in ('+1', '-1')`)
        .execute();
    },
  },
  "0014_webhook_payload_digest": {
    async up(db: Kysely<unknown>) {
      // The signature covers the body, not X-GitHub-Delivery: a signed body sent again under a new
      // delivery id must take effect once too, so deliveries are also unique by the body's SHA-256.
      // Deliveries recorded before, and those of hosts that send none, have no digest (NULLs differ).
      await db.schema.alterTable("webhook_deliveries").addColumn("payload_digest", "text").execute();
      await db.schema
        .createIndex("webhook_deliveries_payload_digest_key")
        .on("webhook_deliveries")
        .column("payload_digest")
        .unique()
        .execute();
    },
  },
  "0015_azure_devops_hooks": {
    async up(db: Kysely<unknown>) {
      // Each Azure DevOps integration has a service hook of its own (docs/decisions/028): a public
      // id in its URL and the SHA-256 of its secret, never the secret. Null for an integration set up
      // before: its events are refused until the team generates a secret.
      await db.schema
        .alterTable("integrations")
        .addColumn("hook_id", "uuid", (c) => c.unique())
        .addColumn("hook_secret_digest", "text")
        .execute();
    },
  },
  "0016_stripe_event_order": {
    async up(db: Kysely<unknown>) {
      // When Stripe created the last subscription event applied to the row: Stripe does not deliver
      // events in order, so an older one arriving later (a retry) must not undo a newer one.
      await db.schema.alterTable("subscriptions").addColumn("stripe_event_at", "timestamptz").execute();
    },
  },
  "0017_rule_settings": {
    async up(db: Kysely<unknown>) {
      // The team rules (`.argus/rules/*.yml`) a repository's latest review read from its pull
      // request's base commit, as loaded and as refused with their errors, for the settings page
      // (docs/decisions/033). The switches of the built-in rule families are settings values
      // (category built_in_rules) and need no table of their own.
      await db.schema
        .createTable("repository_rules")
        .addColumn("project_id", "uuid", (c) => c.primaryKey().references("projects.id").onDelete("cascade"))
        .addColumn("folder", "text", (c) => c.notNull())
        .addColumn("base_sha", "text", (c) => c.notNull())
        .addColumn("rules", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn("invalid", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn("read_at", "timestamptz", (c) => c.notNull())
        .execute();
    },
  },
  "0018_model_call_limits": {
    async up(db: Kysely<unknown>) {
      // How many times each organisation called its AI model in a fixed window, per purpose (a
      // connection test, a review's AI pass): the limits hold across every backend process on the
      // database (docs/decisions/030-model-outbound-calls.md). A window's row is replaced by the
      // next window's, so an organisation keeps one row per purpose.
      await db.schema
        .createTable("model_call_windows")
        .addColumn("org_id", "uuid", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("purpose", "text", (c) => c.notNull())
        .addColumn("window_start", "timestamptz", (c) => c.notNull())
        .addColumn("calls", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("model_call_windows_pkey", ["org_id", "purpose", "window_start"])
        .addCheckConstraint("model_call_windows_purpose", sql`purpose in ('test', 'review')`)
        .addCheckConstraint("model_call_windows_calls", sql`calls > 0`)
        .execute();
    },
  },
  "0019_sandbox_pull_comments": {
    async up(db: Kysely<unknown>) {
      // A person's comment on a sandbox pull request (a bot command among them), as GitHub holds
      // an issue comment: who wrote it. Null for what the review engine posted.
      await db.schema.alterTable("sandbox_reviews").addColumn("author", "text").execute();
    },
  },
  "0020_large_organisations": {
    async up(db: Kysely<unknown>) {
      // Every list a page shows is read one page at a time, in its order, straight from an index
      // (docs/decisions/038-server-side-paging.md): its cost follows the page, not the organisation.
      // The id in each is the tie-breaker that keeps pages from overlapping.
      await sql`create index projects_org_name_idx on projects (org_id, name, id)`.execute(db);
      await sql`create index contributors_org_name_idx on contributors (org_id, name, id)`.execute(db);
      await sql`create index contributors_org_platform_id_idx on contributors (org_id, platform_id, id)`.execute(
        db,
      );
      // Latest activity first or last, people without activity last both ways: two orders, two indexes.
      await sql`create index contributors_org_activity_idx
        on contributors (org_id, last_git_activity asc nulls last, id)`.execute(db);
      await sql`create index contributors_org_activity_desc_idx
        on contributors (org_id, last_git_activity desc nulls last, id)`.execute(db);
      // Runs newest first, of the organisation, of one repository or of one status; the id breaks
      // ties, so the organisation's index gains it and replaces the one without.
      await sql`drop index review_runs_org_queued_idx`.execute(db);
      await sql`create index review_runs_org_queued_idx on review_runs (org_id, queued_at, id)`.execute(db);
      await sql`create index review_runs_project_queued_idx on review_runs (project_id, queued_at, id)`.execute(
        db,
      );
      await sql`create index review_runs_org_status_queued_idx
        on review_runs (org_id, status, queued_at, id)`.execute(db);
      // A search finds a part of a name anywhere in it: trigram indexes answer that without reading
      // every row of the organisation (pg_trgm ships with Postgres and PGlite; a trusted extension,
      // so the database's owner may create it).
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index projects_name_trgm_idx on projects using gin (name gin_trgm_ops)`.execute(db);
      await sql`create index contributors_name_trgm_idx on contributors using gin (name gin_trgm_ops)`.execute(
        db,
      );
      // Whether a run was reviewed in shadow mode, answered per run from its few shadow posts
      // instead of every decision of every run.
      await sql`create index review_decisions_shadow_post_idx on review_decisions (run_id)
        where step = 'post' and outcome = 'shadow'`.execute(db);
    },
  },
  "0021_scale_out": {
    async up(db: Kysely<unknown>) {
      // The gateways' /auth rate limit, counted here so that every gateway counts the same hits
      // (docs/decisions/042-scale-out.md): one row per client key and fixed window.
      await db.schema
        .createTable("auth_rate_limit_windows")
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("window_start", "timestamptz", (c) => c.notNull())
        .addColumn("hits", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("auth_rate_limit_windows_pkey", ["key", "window_start"])
        .execute();
      await db.schema
        .createIndex("auth_rate_limit_windows_start_idx")
        .on("auth_rate_limit_windows")
        .column("window_start")
        .execute();
    },
  },
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
