import { type Kysely, type Migration, sql } from "kysely";

export const readVersions: Migration = {
  async up(db: Kysely<unknown>) {
    // One counter per organisation, moved by every committed write to the rows the backends keep in
    // memory on a Postgres server (docs/decisions/045-read-versions.md): the session check reads it
    // in the same statement, so a cached answer is used only while nothing it came from changed,
    // whichever process wrote. No foreign key: an organisation's deletion cascades into the
    // triggers below, which must not fail on the organisation going.
    await sql`create table read_versions (
      org_id uuid primary key,
      version bigint not null
    )`.execute(db);
    // TG_ARGV[0] names how a row finds its organisation: its own org_id, or its repository's.
    await sql`create function bump_read_version() returns trigger language plpgsql as $$
      declare
        changed jsonb;
        org uuid;
        bumped uuid;
      begin
        foreach changed in array array[to_jsonb(old), to_jsonb(new)] loop
          continue when changed is null;
          if tg_argv[0] = 'org_id' then
            org := (changed ->> 'org_id')::uuid;
          else
            select p.org_id into org from projects p where p.id = (changed ->> 'project_id')::uuid;
          end if;
          continue when org is null or org is not distinct from bumped;
          insert into read_versions as v (org_id, version) values (org, 1)
            on conflict (org_id) do update set version = v.version + 1;
          bumped := org;
        end loop;
        return null;
      end
    $$`.execute(db);
    // Deferred to the commit: the counter's row is locked for the last instant of the transaction,
    // after every other lock it takes, so writers of one organisation never wait on each other in
    // an order that could deadlock, and the new version becomes visible with the rows it covers.
    const tables = [
      ["projects", "org_id"],
      ["subscriptions", "org_id"],
      ["organization_settings", "org_id"],
      ["repository_settings", "project_id"],
      ["repository_rules", "project_id"],
    ] as const;
    for (const [table, orgFrom] of tables) {
      await sql`create constraint trigger ${sql.raw(`${table}_read_version`)}
        after insert or update or delete on ${sql.table(table)}
        deferrable initially deferred
        for each row execute function bump_read_version(${sql.lit(orgFrom)})`.execute(db);
    }
  },
};
