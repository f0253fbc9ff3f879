/**
 * The modules of the repository that the changed files import and whose functions their added
 * lines call, fetched at head for the rule engine's `async` check (docs/decisions/066-imported-functions.md).
 * A module that is itself a changed file costs no call. The fetches are bounded: a pull request
 * touching many files must not turn into hundreds of calls to the code host.
 */
import type { ReviewHost } from "../../code-hosts/review-host.ts";
import { modulesToFetch, type RelatedModules } from "../reviewers/builtin/rules/imports.ts";
import type { DiffFile } from "./diff.ts";

/** Modules fetched per run, at most. */
export const RELATED_MODULES_MAX = 20;
/** Calls to the code host per run, at most (a module without an extension may take several tries). */
export const RELATED_FETCHES_MAX = 40;
/** A larger module is not parsed (generated bundles, vendored code). */
export const RELATED_MODULE_BYTES_MAX = 256_000;

export interface RelatedFetch {
  modules: RelatedModules;
  /** Calls made to the code host. */
  fetches: number;
  /** Modules given up on because the code host failed to answer: they cost only the checks that read them. */
  failed: number;
}

export async function fetchRelatedModules(
  host: Pick<ReviewHost, "fileContent">,
  headSha: string,
  files: readonly DiffFile[],
): Promise<RelatedFetch> {
  const changed = new Map(
    files.flatMap((file) => (file.content === undefined ? [] : [[file.path, file.content] as const])),
  );
  const modules = new Map<string, string>();
  let fetches = 0;
  let failed = 0;
  await Promise.all(
    modulesToFetch(files)
      .slice(0, RELATED_MODULES_MAX)
      .map(async (candidates) => {
        for (const candidate of candidates) {
          const known = changed.get(candidate);
          if (known !== undefined) {
            modules.set(candidate, known);
            return;
          }
          if (fetches >= RELATED_FETCHES_MAX) return;
          fetches += 1;
          let text: string | null;
          try {
            text = await host.fileContent(candidate, headSha);
          } catch {
            failed += 1;
            return;
          }
          if (text === null) continue;
          if (Buffer.byteLength(text) <= RELATED_MODULE_BYTES_MAX) modules.set(candidate, text);
          return;
        }
      }),
  );
  return { modules, fetches, failed };
}
