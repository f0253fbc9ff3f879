import { type Kysely, type Migration, sql } from "kysely";

export const largeOrganisations: Migration = {
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
};
