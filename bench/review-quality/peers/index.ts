/**
 * Runs every peer over the same cases as Argus (peer.ts says how), keeping only findings on the
 * lines each case adds. A peer whose tool is missing is reported "not installed"; one that fails
 * as a whole has every case "not run" with its error.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { addedLinesByPath, type CorpusCase } from "../corpus.ts";
import { bandit } from "./bandit.ts";
import { eslint } from "./eslint.ts";
import { goVet } from "./go-vet.ts";
import type { Peer, PeerCaseResult, PeerRun } from "./peer.ts";
import { secretlint } from "./secretlint.ts";

export const PEERS: readonly Peer[] = [bandit, eslint, secretlint, goVet];

/** Writes every case's head files under `root/<case id>/`. */
async function writeHeads(root: string, cases: readonly CorpusCase[]): Promise<void> {
  for (const corpusCase of cases) {
    for (const [file, text] of corpusCase.head) {
      const target = path.join(root, corpusCase.id, file);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
  }
}

/** Keeps a case's findings on the lines it adds. */
function onAddedLines(corpusCase: CorpusCase, result: PeerCaseResult): PeerCaseResult {
  if (result.status !== "ran") return result;
  const added = addedLinesByPath(corpusCase.files);
  return {
    status: "ran",
    findings: result.findings.filter((finding) => added.get(finding.path)?.has(finding.line) ?? false),
  };
}

export async function runPeers(
  cases: readonly CorpusCase[],
  peers: readonly Peer[] = PEERS,
): Promise<PeerRun[]> {
  const runs: PeerRun[] = [];
  for (const peer of peers) {
    const inScope = cases.filter((corpusCase) => peer.languages.includes(corpusCase.language));
    const version = await peer.version();
    if (version === null) {
      runs.push({ peer: peer.name, version: "not installed", installed: false, results: new Map() });
      continue;
    }
    // A fresh folder per peer: go vet writes go.mod files into its cases.
    const root = await mkdtemp(path.join(os.tmpdir(), "quality-peer-"));
    try {
      await writeHeads(root, inScope);
      let results: Map<string, PeerCaseResult>;
      try {
        results = await peer.run(root, inScope);
      } catch (error) {
        const reason = `${peer.name} failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`;
        results = new Map(inScope.map((each) => [each.id, { status: "not run", reason }]));
      }
      runs.push({
        peer: peer.name,
        version,
        installed: true,
        results: new Map(
          inScope.map((corpusCase): [string, PeerCaseResult] => [
            corpusCase.id,
            onAddedLines(
              corpusCase,
              results.get(corpusCase.id) ?? { status: "not run", reason: "no result" },
            ),
          ]),
        ),
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
  return runs;
}
