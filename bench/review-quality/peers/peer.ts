/**
 * Peers: other analyzers run side by side with Argus on the same cases, in the same
 * `bench:quality` run (bench/README.md, "Peers"). Each reads the head files of every case (the
 * base with the patch applied) written into a scratch folder `<root>/<case id>/<path>`, runs in a
 * process of its own, and answers its findings per case. Only findings on lines the case adds are
 * kept, as Argus comments only on those, and each is scored by the same matcher as Argus's: a peer
 * names no category, so each of its rules maps to one (`categoryOf`), and a finding of a rule that
 * maps to none catches nothing.
 */
import type { FindingCategory } from "../../../shared/contract/reviews.ts";
import type { CorpusCase, Language } from "../corpus.ts";

export interface PeerFinding {
  path: string;
  line: number;
  ruleId: string;
  /** The rule's category under the peer's mapping; null for a rule mapped to none. */
  category: FindingCategory | null;
}

/** How a peer fared on one case. */
export type PeerCaseResult =
  | { status: "ran"; findings: PeerFinding[] }
  /** The peer could not analyse the case (it does not build, a file does not parse, …). */
  | { status: "not run"; reason: string };

export interface PeerRun {
  peer: string;
  /** The tool and version, or why it is missing. */
  version: string;
  installed: boolean;
  /** By case id, for the cases in the peer's scope. */
  results: Map<string, PeerCaseResult>;
}

export interface Peer {
  name: string;
  /** The languages whose cases the peer reviews. */
  languages: readonly Language[];
  /** The tool's version, or null when it is not installed. */
  version(): Promise<string | null>;
  /** Runs over the cases' head files under `root` and answers each case's findings (all lines). */
  run(root: string, cases: readonly CorpusCase[]): Promise<Map<string, PeerCaseResult>>;
}

/** A case's file under the scratch folder, split back into case id and path. */
export function splitScratchPath(relative: string): { caseId: string; path: string } | null {
  const normalised = relative.replaceAll("\\", "/").replace(/^\.\//, "");
  const slash = normalised.indexOf("/");
  if (slash <= 0) return null;
  return { caseId: normalised.slice(0, slash), path: normalised.slice(slash + 1) };
}

/** Groups findings (with scratch-relative paths) by case, every case of `ids` present. */
export function byCase(
  ids: readonly string[],
  found: readonly (Omit<PeerFinding, "path"> & { scratchPath: string })[],
): Map<string, PeerFinding[]> {
  const grouped = new Map(ids.map((id): [string, PeerFinding[]] => [id, []]));
  for (const { scratchPath, ...finding } of found) {
    const where = splitScratchPath(scratchPath);
    if (where) grouped.get(where.caseId)?.push({ ...finding, path: where.path });
  }
  return grouped;
}
