/**
 * A peer's figures on a set of cases, by the same matcher as Argus's (metrics.ts): recall over the
 * cases it ran on, by category and language, and its findings (on added lines) per clean case.
 */
import type { CorpusCase } from "../corpus.ts";
import { type RecallTable, recallTable } from "../metrics.ts";
import type { PeerRun } from "./peer.ts";

export interface PeerScore {
  peer: string;
  installed: boolean;
  /** Cases of the peer's languages in the set, and how many it ran on. */
  inScope: number;
  ran: number;
  recall: RecallTable;
  /** Languages the peer reviews, for telling "none in scope" from "none caught". */
  languages: ReadonlySet<string>;
  findingsOnClean: number;
  cleanRan: number;
  perCleanCase: number | null;
}

export function scorePeer(run: PeerRun, cases: readonly CorpusCase[]): PeerScore {
  const inScope = cases.filter((corpusCase) => run.results.has(corpusCase.id));
  const ran = inScope.flatMap((corpusCase) => {
    const result = run.results.get(corpusCase.id);
    return result?.status === "ran" ? [{ corpusCase, findings: result.findings }] : [];
  });
  const clean = ran.filter(({ corpusCase }) => corpusCase.kind === "clean");
  const findingsOnClean = clean.reduce((sum, { findings }) => sum + findings.length, 0);
  return {
    peer: run.peer,
    installed: run.installed,
    inScope: inScope.length,
    ran: ran.length,
    recall: recallTable(
      ran.map(({ corpusCase, findings }) => ({
        language: corpusCase.language,
        defects: corpusCase.defects,
        findings,
      })),
    ),
    languages: new Set(inScope.map((corpusCase) => corpusCase.language)),
    findingsOnClean,
    cleanRan: clean.length,
    perCleanCase: clean.length ? findingsOnClean / clean.length : null,
  };
}
