/**
 * An organisation's contributors (docs/product.md#contributors-and-seats): the people its code host
 * sees active on its repositories, imported, plus those added by username. One row per person and
 * code host; importing or adding again updates the row and never touches its seat.
 */
import { type Selectable, sql } from "kysely";
import type { Contributor, ContributorsPage, ContributorsQuery } from "../../shared/contract/contributors.ts";
import { GITHUB_INTEGRATION } from "../code-hosts/catalogue.ts";
import type { CodeHostPerson } from "../code-hosts/code-host.ts";
import type { Db } from "../db/database.ts";
import { containsPattern, offsetOf, pageInfoOf } from "../db/paging.ts";
import { cachedRead, type ReadCacheKind } from "../db/read-cache.ts";
import type { ContributorsTable } from "../db/schema.ts";

/** The code host contributors come from: GitHub (or the sandbox standing in for it). */
export const CONTRIBUTOR_PLATFORM = "github";

type ContributorRow = Selectable<ContributorsTable>;

export function contributorOf(
  row: Omit<ContributorRow, "org_id" | "seat_assigned_at" | "created_at" | "updated_at">,
): Contributor {
  return {
    id: row.id,
    name: row.name,
    platform_id: row.platform_id,
    platform_type: row.platform_type,
    email: row.email,
    avatar_url: row.avatar_url,
    last_git_activity: row.last_git_activity?.toISOString() ?? null,
    role: row.role,
    seat_id: row.seat_id,
  };
}

const CONTRIBUTOR_COLUMNS = [
  "id",
  "name",
  "platform_id",
  "platform_type",
  "email",
  "avatar_url",
  "last_git_activity",
  "role",
  "seat_id",
] as const;

/** The contributors of the organisation whose name holds the query's search, before paging. */
function matching(db: Db, orgId: string, query: Pick<ContributorsQuery, "search">) {
  const select = db.selectFrom("contributors").where("org_id", "=", orgId);
  return query.search ? select.where("name", "ilike", containsPattern(query.search)) : select;
}

/**
 * One page of the organisation's contributors in the query's order, each order the one of an index
 * (migration 0020): by name or username, or by latest activity with people without any last.
 */
export function listContributors(db: Db, orgId: string, query: ContributorsQuery): Promise<ContributorsPage> {
  const key = JSON.stringify([orgId, query.search, query.sort, query.page, query.pageSize]);
  return cachedRead(db, CONTRIBUTOR_PAGES, key, () => readContributors(db, orgId, query));
}

/**
 * Pages of contributors, on embedded PGlite answered from memory until the next write to
 * contributors (db/read-cache.ts), an import or a seat change included.
 */
const CONTRIBUTOR_PAGES: ReadCacheKind = { tables: ["contributors"] };

async function readContributors(db: Db, orgId: string, query: ContributorsQuery): Promise<ContributorsPage> {
  const descending = query.sort.startsWith("-");
  const column = (descending ? query.sort.slice(1) : query.sort) as
    | "name"
    | "platform_id"
    | "last_git_activity";
  let select = matching(db, orgId, query).select(CONTRIBUTOR_COLUMNS);
  select =
    column === "last_git_activity"
      ? select
          .orderBy("last_git_activity", (order) => (descending ? order.desc() : order.asc()).nullsLast())
          .orderBy("id")
      : select.orderBy(column, descending ? "desc" : "asc").orderBy("id", descending ? "desc" : "asc");
  const [rows, counted] = await Promise.all([
    select.limit(query.pageSize).offset(offsetOf(query)).execute(),
    matching(db, orgId, query)
      .select((eb) => eb.fn.countAll<string>().as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { contributors: rows.map(contributorOf), page: pageInfoOf(query, Number(counted.total)) };
}

/** The repositories of the organisation's GitHub projects, as the setup stored them. */
export async function githubRepositoriesOf(db: Db, orgId: string): Promise<{ full_name: string }[]> {
  const rows = await db
    .selectFrom("projects")
    .select(sql<string>`properties->>'full_name'`.as("full_name"))
    .where("org_id", "=", orgId)
    .where("integration_name", "=", GITHUB_INTEGRATION)
    .where("active", "=", true)
    .execute();
  return rows.filter((row) => row.full_name);
}

function rowOf(orgId: string, person: CodeHostPerson) {
  return {
    org_id: orgId,
    platform_type: CONTRIBUTOR_PLATFORM,
    platform_id: person.login,
    name: person.name ?? person.login,
    email: person.email,
    avatar_url: person.avatar_url,
    last_git_activity: person.last_activity ? new Date(person.last_activity) : null,
  };
}

/**
 * Adds or updates people as contributors. What the code host does not say (an address, an
 * activity) keeps its stored value, and the latest activity wins; seats and roles stay.
 */
function upsert(db: Db, orgId: string, people: readonly CodeHostPerson[]) {
  return db
    .insertInto("contributors")
    .values(people.map((person) => rowOf(orgId, person)))
    .onConflict((conflict) =>
      conflict.columns(["org_id", "platform_type", "platform_id"]).doUpdateSet((eb) => ({
        name: eb.ref("excluded.name"),
        email: sql<string | null>`coalesce(excluded.email, contributors.email)`,
        avatar_url: sql<string | null>`coalesce(excluded.avatar_url, contributors.avatar_url)`,
        last_git_activity: sql<Date | null>`greatest(excluded.last_git_activity, contributors.last_git_activity)`,
        updated_at: sql<Date>`now()`,
      })),
    );
}

export async function importContributors(
  db: Db,
  orgId: string,
  people: readonly CodeHostPerson[],
): Promise<void> {
  if (people.length > 0) await upsert(db, orgId, people).execute();
}

/** Adds one person; `created` false when they were a contributor already (and were updated). */
export async function addContributor(
  db: Db,
  orgId: string,
  person: CodeHostPerson,
): Promise<{ created: boolean; contributor: Contributor }> {
  const row = await upsert(db, orgId, [person])
    // xmax is 0 on a row this statement inserted, and set on one it updated.
    .returning([...CONTRIBUTOR_COLUMNS, sql<boolean>`xmax = 0`.as("created")])
    .executeTakeFirstOrThrow();
  return { created: row.created, contributor: contributorOf(row) };
}
