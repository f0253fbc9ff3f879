/**
 * Tells listeners which tables a query is about to write, and again once it has: for in-process
 * caches of rows that this process alone writes (embedded PGlite, see database.ts). A Kysely plugin
 * sees every query built with Kysely, inside transactions too. What it cannot read with certainty
 * (raw SQL other than a plain SELECT, schema changes, data-modifying WITH, MERGE) counts as a write
 * to every table, so a cache errs on the side of reading again.
 */
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

/** The tables written, or "all" when that cannot be told. */
export type WrittenTables = ReadonlySet<string> | "all";

export type TableWriteListener = (tables: WrittenTables) => void;

const NO_TABLES: ReadonlySet<string> = new Set();

function tableName(node: OperationNode | undefined): string | undefined {
  if (node?.kind === "TableNode") {
    return (node as OperationNode & { table: { identifier: { name: string } } }).table.identifier.name;
  }
  if (node?.kind === "AliasNode") return tableName((node as OperationNode & { node: OperationNode }).node);
  return undefined;
}

function tablesOf(nodes: readonly (OperationNode | undefined)[]): WrittenTables {
  const names = nodes.map(tableName);
  return names.every((name) => name !== undefined) ? new Set(names as string[]) : "all";
}

const PLAIN_SELECT = /^\s*select\b[^;]*$/i;

export function writtenTables(node: RootOperationNode): WrittenTables {
  if ("with" in node && node.with) return "all";
  switch (node.kind) {
    case "SelectQueryNode":
      return NO_TABLES;
    case "InsertQueryNode":
      return tablesOf([node.into]);
    case "UpdateQueryNode":
      return tablesOf([node.table]);
    case "DeleteQueryNode":
      return tablesOf(node.from.froms);
    case "RawNode":
      return PLAIN_SELECT.test(node.sqlFragments.join("?")) ? NO_TABLES : "all";
    default:
      return "all";
  }
}

export class TableWritesPlugin implements KyselyPlugin {
  readonly #listeners = new Set<TableWriteListener>();
  readonly #pending = new WeakMap<object, WrittenTables>();

  /** Calls `listener` before and after every write; returns the function that stops it. */
  onWrite(listener: TableWriteListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #tell(tables: WrittenTables): void {
    if (tables !== "all" && tables.size === 0) return;
    for (const listener of this.#listeners) listener(tables);
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const tables = writtenTables(node);
    this.#tell(tables);
    this.#pending.set(queryId, tables);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const tables = this.#pending.get(queryId);
    if (tables) this.#tell(tables);
    return result;
  }
}
