/**
 * `go vet` (the toolchain's own analyzers) on each Go case, in a process per case. vet type-checks
 * a package, so it needs every import to resolve; with no module proxy reachable, a case that
 * imports anything outside the standard library (and its own module) does not build and is
 * reported "not run", never as zero findings. A case without a go.mod gets a minimal one.
 */
import { execFile } from "node:child_process";
import { access, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { FindingCategory } from "../../../shared/contract/reviews.ts";
import type { CorpusCase } from "../corpus.ts";
import type { Peer, PeerCaseResult, PeerFinding } from "./peer.ts";

const run = promisify(execFile);

/**
 * vet's analyzers by the defect category their reports fall in. Those left out (composites,
 * structtag, buildtag, tests, unreachable, asmdecl, framepointer, cgocall) are about style or
 * build hygiene and map to none.
 */
const ANALYZER_CATEGORIES: Readonly<Record<string, FindingCategory>> = {
  copylocks: "race",
  atomic: "race",
  loopclosure: "race",
  lostcancel: "resource-leak",
  assign: "logic",
  bools: "logic",
  errorsas: "logic",
  httpresponse: "logic",
  ifaceassert: "logic",
  nilfunc: "logic",
  printf: "logic",
  shift: "logic",
  sigchanyzer: "logic",
  stdmethods: "logic",
  stringintconv: "logic",
  testinggoroutine: "logic",
  unmarshal: "logic",
  unsafeptr: "logic",
  unusedresult: "logic",
};

export function goVetCategory(analyzer: string): FindingCategory | null {
  return ANALYZER_CATEGORIES[analyzer] ?? null;
}

/** The top-level JSON objects of `text` (vet prints one per package, after a `# package` line). */
function jsonObjects(text: string): unknown[] {
  const objects: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"' && depth > 0) inString = true;
    else if (char === "{") {
      if (depth++ === 0) start = index;
    } else if (char === "}" && depth > 0 && --depth === 0) {
      objects.push(JSON.parse(text.slice(start, index + 1)));
    }
  }
  return objects;
}

/** `go vet -json` output (its stderr) in the case folder `dir`: findings with case-relative paths. */
export function parseGoVetJson(stderr: string, dir: string): PeerFinding[] {
  const findings: PeerFinding[] = [];
  for (const object of jsonObjects(stderr)) {
    for (const analyzers of Object.values(object as Record<string, Record<string, unknown>>)) {
      for (const [analyzer, reports] of Object.entries(analyzers)) {
        if (!Array.isArray(reports)) continue;
        for (const report of reports as { posn: string }[]) {
          const match = /^(.*):(\d+):\d+$/.exec(report.posn);
          if (!match?.[1] || !match[2]) continue;
          findings.push({
            path: path.relative(dir, match[1]).split(path.sep).join("/"),
            line: Number(match[2]),
            ruleId: analyzer,
            category: goVetCategory(analyzer),
          });
        }
      }
    }
  }
  return findings;
}

/** Import paths of a Go file. */
export function goImports(source: string): string[] {
  const imports: string[] = [];
  for (const block of source.matchAll(/^import\s*\(([\s\S]*?)\)/gm))
    for (const line of (block[1] ?? "").matchAll(/"([^"]+)"/g)) if (line[1]) imports.push(line[1]);
  for (const single of source.matchAll(/^import\s+(?:[\w.]+\s+)?"([^"]+)"/gm))
    if (single[1]) imports.push(single[1]);
  return imports;
}

const MODULE = "quality.invalid/corpus";

/** Why the case cannot build with no module proxy, or null when every import is at hand. */
export function unbuildableReason(corpusCase: CorpusCase): string | null {
  const goMod = corpusCase.head.get("go.mod");
  const modulePath = goMod ? /^module\s+(\S+)/m.exec(goMod)?.[1] : MODULE;
  if (goMod && /^require\b/m.test(goMod)) return "its go.mod requires modules (no module proxy here)";
  for (const [file, text] of corpusCase.head) {
    if (!file.endsWith(".go")) continue;
    for (const imported of goImports(text)) {
      const external = imported.split("/")[0]?.includes(".") ?? false;
      if (external && !(modulePath && (imported === modulePath || imported.startsWith(`${modulePath}/`))))
        return `imports ${imported} (no module proxy here)`;
    }
  }
  return null;
}

export const goVet: Peer = {
  name: "go vet",
  languages: ["go"],
  async version() {
    try {
      const { stdout } = await run("go", ["version"]);
      return stdout.trim();
    } catch {
      return null;
    }
  },
  async run(root, cases) {
    const results = new Map<string, PeerCaseResult>();
    for (const corpusCase of cases) {
      const reason = unbuildableReason(corpusCase);
      if (reason) {
        results.set(corpusCase.id, { status: "not run", reason });
        continue;
      }
      const dir = path.join(root, corpusCase.id);
      const goMod = path.join(dir, "go.mod");
      if (
        !(await access(goMod).then(
          () => true,
          () => false,
        ))
      )
        await writeFile(goMod, `module ${MODULE}\n\ngo 1.19\n`);
      try {
        const { stderr } = await run("go", ["vet", "-json", "./..."], {
          cwd: dir,
          env: { ...process.env, GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local", GOWORK: "off" },
          maxBuffer: 16 * 1024 * 1024,
        });
        results.set(corpusCase.id, { status: "ran", findings: parseGoVetJson(stderr, dir) });
      } catch (error) {
        const stderr = String((error as { stderr?: string }).stderr ?? error);
        const first = stderr.split("\n").find((line) => line.trim() && !line.startsWith("#")) ?? "failed";
        results.set(corpusCase.id, { status: "not run", reason: `does not build: ${first.slice(0, 200)}` });
      }
    }
    return results;
  },
};
