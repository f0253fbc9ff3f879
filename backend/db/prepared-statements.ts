/**
 * Named statements for the few reads that run on every call (the session check): built and
 * compiled by Kysely once, then run under a name, so that a Postgres server parses and plans them
 * once per connection instead of on every call. Planning the session check's four-table join cost
 * Postgres about four times what running it did (docs/decisions/052-prepared-session-check.md).
 *
 * A pooler in front of Postgres must keep prepared statements per client: PgBouncer's session
 * mode, or its transaction mode from 1.21 with `max_prepared_statements` set.
 */
import type { Compilable, CompiledQuery } from "kysely";
import pg from "pg";
import type { Db } from "./database.ts";

/** The SQL of every named statement, to its name: the same text on every database and connection. */
const namesBySql = new Map<string, string>();

/** Stands for a parameter in the query built once; replaced by the call's value when run. */
const placeholderOf = (key: string) => `\u0000prepared:${key}`;

/**
 * A read of one row by string parameters (ids), run as the named statement `name` on a Postgres
 * server. `build` makes the query from placeholders; it is compiled on first use.
 */
export function preparedRead<Row, Key extends string>(
  name: string,
  keys: readonly Key[],
  build: (db: Db, parameters: Record<Key, string>) => Compilable<Row>,
): (db: Db, values: Record<Key, string>) => Promise<Row | undefined> {
  const keyOfPlaceholder = new Map(keys.map((key) => [placeholderOf(key), key]));
  let compiled: CompiledQuery<Row> | undefined;
  return async (db, values) => {
    if (!compiled) {
      const placeholders = Object.fromEntries(keys.map((key) => [key, placeholderOf(key)]));
      compiled = build(db, placeholders as Record<Key, string>).compile();
      const known = namesBySql.get(compiled.sql);
      if (known !== undefined && known !== name)
        throw new Error(`"${name}" is already prepared as "${known}"`);
      namesBySql.set(compiled.sql, name);
    }
    const parameters = compiled.parameters.map((parameter) => {
      const key = typeof parameter === "string" ? keyOfPlaceholder.get(parameter) : undefined;
      return key === undefined ? parameter : values[key];
    });
    const { rows } = await db.executeQuery<Row>({ ...compiled, parameters });
    return rows[0];
  };
}

/**
 * A `pg` client that runs the prepared reads' SQL as named statements; every other statement goes
 * as before, unnamed. For pg.Pool's `Client` option: Kysely's driver calls `query(sql, values)`.
 */
export class StatementNamingClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const name = typeof text === "string" ? namesBySql.get(text) : undefined;
    const send = super.query as (...sent: unknown[]) => never;
    if (name === undefined || args.length > 2) return send.apply(this, args);
    return send.call(this, { name, text, values });
  }
}
