/**
 * Applies the schema migrations and exits: `node backend/migrate.ts`, the one-shot step a
 * deployment of several backends runs before starting them (compose.yaml's `migrate`, a Kubernetes
 * Job). Backends still migrate at start, under the same advisory lock, so this step is an order, not
 * a requirement (docs/decisions/042-scale-out.md). Needs only DATABASE_URL.
 */
import { loadEnvFile } from "../shared/node/env-file.ts";
import { openDatabase } from "./db/database.ts";
import { migrateToLatest } from "./db/migrations.ts";

async function main(): Promise<void> {
  loadEnvFile();
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL: required (migrations run on a Postgres server)");
    process.exit(1);
  }
  const db = await openDatabase({ kind: "postgres", url });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  console.log("database migrated");
}

main().catch((error: unknown) => {
  console.error("Migration failed:", error);
  process.exit(1);
});
