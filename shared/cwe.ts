/**
 * Where a weakness is described: a finding's CWE id (shared/review-contract.ts) links there, on the
 * run page and in posted comments. A module of its own so that pages without findings never load it.
 */

/** MITRE's page of a weakness: `CWE-89` → https://cwe.mitre.org/data/definitions/89.html. */
export function cweUrl(cwe: string): string {
  return `https://cwe.mitre.org/data/definitions/${cwe.replace(/^CWE-/, "")}.html`;
}
