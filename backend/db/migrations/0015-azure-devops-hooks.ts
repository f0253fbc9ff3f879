import type { Kysely, Migration } from "kysely";

export const azureDevopsHooks: Migration = {
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
};
