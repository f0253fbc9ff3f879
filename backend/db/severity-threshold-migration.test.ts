/**
 * Migration 0012_severity_threshold: stored `comment_style.minor_findings` values become
 * `severity_threshold`, and review_findings takes shadow deliveries.
 */
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { migrationDatabases } from "../../tests/support/migration-databases.ts";
import { seedProject } from "../../tests/support/review-queue.ts";
import { migrateToLatest, migrations } from "./migrations.ts";

const NAME = "0012_severity_threshold";
const names = Object.keys(migrations);
const before = names[names.indexOf(NAME) - 1] as string;

const databases = migrationDatabases();

describe.each(TEST_DATABASE_KINDS)(`migration ${NAME} on %s`, (kind) => {
  const migratedUpTo = (name: string) => databases.migratedUpTo(kind, name);

  it("turns minor findings on into 'minor', off into 'major', drops the old key and keeps the rest", async () => {
    const database = await migratedUpTo(before);
    const { orgId, projectId } = await seedProject(database);
    const organization = (integration_name: string, value: object) =>
      database
        .insertInto("organization_settings")
        .values({ org_id: orgId, integration_name, category: "comment_style", value: JSON.stringify(value) })
        .execute();
    await organization("github", { minor_findings: true, summary_comment: false });
    await organization("azure-devops", { minor_findings: false });
    await database
      .insertInto("organization_settings")
      .values({
        org_id: orgId,
        integration_name: "github",
        category: "review_scope",
        value: JSON.stringify({ review_drafts: true }),
      })
      .execute();
    await database
      .insertInto("repository_settings")
      .values([
        // A value of another type was never in effect: it goes, and the key stays unset.
        {
          project_id: projectId,
          category: "comment_style",
          value: JSON.stringify({ minor_findings: "yes" }),
        },
        { project_id: projectId, category: "review_scope", value: JSON.stringify({ minor_findings: true }) },
      ])
      .execute();

    await migrateToLatest(database);

    const organizationValues = await database
      .selectFrom("organization_settings")
      .select(["integration_name", "category", "value"])
      .orderBy("integration_name")
      .orderBy("category")
      .execute();
    expect(organizationValues).toEqual([
      { integration_name: "azure-devops", category: "comment_style", value: { severity_threshold: "major" } },
      {
        integration_name: "github",
        category: "comment_style",
        value: { severity_threshold: "minor", summary_comment: false },
      },
      { integration_name: "github", category: "review_scope", value: { review_drafts: true } },
    ]);
    const repositoryValues = await database
      .selectFrom("repository_settings")
      .select(["category", "value"])
      .orderBy("category")
      .execute();
    expect(repositoryValues).toEqual([
      { category: "comment_style", value: {} },
      // Only comment_style had the setting; another category's key of that name is not touched.
      { category: "review_scope", value: { minor_findings: true } },
    ]);
  });

  it("records a shadow finding only with where it would have gone", async () => {
    const database = await migratedUpTo(NAME);
    const { orgId, projectId } = await seedProject(database);
    const run = await database
      .insertInto("review_runs")
      .values({ org_id: orgId, project_id: projectId, pull_request: 1, trigger: "opened" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const finding = (fingerprint: string, delivery: string, shadow_delivery: string | null) =>
      database
        .insertInto("review_findings")
        .values({
          run_id: run.id,
          fingerprint,
          delivery: delivery as "shadow",
          shadow_delivery: shadow_delivery as "inline" | null,
          finding: "{}",
        })
        .execute();
    await finding("a", "shadow", "inline");
    await finding("b", "shadow", "summary");
    await finding("c", "inline", null);
    await expect(finding("d", "shadow", null)).rejects.toMatchObject({ code: "23514" });
    await expect(finding("e", "inline", "inline")).rejects.toMatchObject({ code: "23514" });
    await expect(finding("f", "shadow", "duplicate")).rejects.toMatchObject({ code: "23514" });
    await expect(finding("g", "posted", null)).rejects.toMatchObject({ code: "23514" });
  });
});
