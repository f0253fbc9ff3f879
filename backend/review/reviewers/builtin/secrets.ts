/**
 * Secrets on added lines, found by secretlint with its recommended rules (AWS access key ids
 * included). Each file's added lines are linted together, a "@@" line between separate runs, so a
 * private key spanning several added lines is still seen. Two checks of our own find what
 * secretlint does not: a private key written on one line with `\n` escapes, and a high-entropy
 * literal given to a name that holds a secret (`apiKey: "…"`, `CLIENT_SECRET = "…"`).
 *
 * A secret never travels further than the diff already took it: the message names only the kind of
 * secret and a masked form, and the quote masks the secret in the line; the fingerprint is a hash of
 * the real line (fingerprint() in ../findings.ts).
 */
import { lintSource } from "@secretlint/core";
import { creator as recommendedPreset } from "@secretlint/secretlint-rule-preset-recommend";
import type { Finding } from "../../../../shared/contract/reviews.ts";
import { addedLines, type DiffFile } from "../../pipeline/diff.ts";
import { createFinding } from "../../pipeline/findings.ts";
import type { Analyzer } from "./analyzer.ts";

const SECRET_FIX = "Revoke it now, then load it from the environment or a secret store.";

/** A PEM private key in a string, its line breaks written as `\n` (or `\r\n`). */
const ESCAPED_PRIVATE_KEY =
  /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----(?:\\r)?\\n([A-Za-z0-9+/=]{16,}(?:(?:\\r)?\\n[A-Za-z0-9+/=]+)*)/;

/** A name that holds a secret, as the last word of an identifier or key. */
const SECRET_NAME =
  /(secret|token|passw(or)?d|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|signing[_-]?key|auth[_-]?key|encryption[_-]?key|secret[_-]?key|credentials?)$/i;
/** `name = "value"`, `name: "value"`, `"name": "value"`, `name := "value"`, `name => "value"`. */
const ASSIGNED_LITERAL =
  /(?:^|[\s,{([.])["']?([A-Za-z_$][\w$-]*)["']?\s*(?::=|=>|=|:)\s*(?:[bru]?)(["'`])([^"'`\s\\]{16,200})\2/g;
/** Placeholders, references and templates, not secrets. */
const NOT_A_SECRET =
  /x{4,}|\*{3,}|your|example|change[_-]?me|placeholder|dummy|fake|sample|redacted|\$\{|\{\{|%s|<|:\/\/|^(sha\d+|md5)-/i;
const TEST_PATH =
  /(^|\/)(__tests__|tests?|spec|fixtures?|testdata)\/|[._-](test|spec)\.[^/]+$|_test\.(go|py)$|(^|\/)test_[^/]+\.py$/;
const ENTROPY_MIN = 3.5;

/** Shannon entropy of the text, in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / text.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

/** Whether a literal looks generated (a key, a token) rather than written (a word, a path). */
export function looksRandom(value: string): boolean {
  return (
    !NOT_A_SECRET.test(value) &&
    /[0-9]/.test(value) &&
    /[A-Za-z]/.test(value) &&
    (value.match(/\//g) ?? []).length <= 2 &&
    entropy(value) >= ENTROPY_MIN
  );
}

const SECRETLINT_CONFIG = {
  rules: [
    {
      id: "@secretlint/secretlint-rule-preset-recommend",
      rule: recommendedPreset,
      // An access key id is not the secret itself, but one in the code means its secret is close by.
      rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } }],
    },
  ],
};

/** Leaves a short prefix of long secrets (the kind, such as `ghp_` or `AKIA`) and stars the rest. */
export function maskSecret(secret: string): string {
  const kept = secret.length >= 16 ? 4 : 0;
  return secret.slice(0, kept) + "*".repeat(secret.length - kept);
}

interface Source {
  content: string;
  /** For each line of `content`, its right-side line number and text; null for a separator. */
  lines: ({ line: number; text: string } | null)[];
}

function sourceOf(file: DiffFile): Source {
  const lines: Source["lines"] = [];
  let previous = Number.NaN;
  for (const hunk of file.hunks) {
    for (const line of hunk.lines) {
      if (line.kind !== "add" || line.newLine === null) continue;
      if (lines.length > 0 && line.newLine !== previous + 1) lines.push(null);
      lines.push({ line: line.newLine, text: line.text });
      previous = line.newLine;
    }
  }
  // "@@" (as in a hunk header) is no part of any secret, so no match spans two runs.
  return { content: lines.map((entry) => entry?.text ?? "@@").join("\n"), lines };
}

/** `@secretlint/secretlint-rule-github` → `github`, in the characters a finding's rule id allows. */
function ruleName(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, "").replace(/[^A-Za-z0-9._-]+/g, "-");
}

/** The matched text: secretlint's data holds it for most rules; the range for the rest. */
function secretsOf(data: unknown, content: string, range: readonly [number, number]): string[] {
  const values = Object.values(data ?? {}).filter(
    (value): value is string => typeof value === "string" && value.length >= 8 && content.includes(value),
  );
  return values.length > 0 ? values : [content.slice(range[0], range[1])];
}

/** Masks each line of each secret, except PEM armour (`-----BEGIN … KEY-----`), which is no secret. */
function maskLine(text: string, secrets: readonly string[]): string {
  let masked = text;
  // A key written on one line is its armour and its body together: only the body is masked.
  const parts = secrets
    .flatMap((secret) => secret.split("\n"))
    .flatMap((part) => part.split(/-----[A-Z0-9 ]+-----/));
  for (const part of parts) {
    if (part.length >= 8) masked = masked.replaceAll(part, maskSecret(part));
  }
  return masked;
}

/** The masked secret for a one-line secret; a multi-line one (a private key) is named only. */
function describeSecret(name: string, secret: string): string {
  return secret.includes("\n") ? name : `${name}, ${maskSecret(secret)}`;
}

async function fileFindings(file: DiffFile): Promise<Finding[]> {
  const source = sourceOf(file);
  if (source.lines.length === 0) return [];
  const result = await lintSource({
    source: { content: source.content, filePath: `/${file.path}`, contentType: "text" },
    options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true },
  });
  return result.messages.flatMap((message) => {
    const at = source.lines[message.loc.start.line - 1];
    if (!at) return [];
    const secrets = secretsOf(message.data, source.content, message.range);
    const name = ruleName(message.ruleId);
    return [
      createFinding({
        ruleId: `secrets/${name}`,
        severity: "critical",
        category: "security",
        cwe: "CWE-798",
        path: file.path,
        at: { ...at, quote: maskLine(at.text, secrets) },
        message:
          `A secret (${describeSecret(name, secrets[0] ?? "")}) is added here. Anyone ` +
          "who can read the repository or its history can use it.",
        fix: SECRET_FIX,
      }),
    ];
  });
}

/** Private keys on one line with escaped line breaks, and random-looking literals given to secret names. */
function ownFindings(file: DiffFile, reported: ReadonlySet<number>): Finding[] {
  const test = TEST_PATH.test(file.path);
  return addedLines(file).flatMap((added) => {
    // secretlint named this line's secret already.
    if (reported.has(added.line)) return [];
    const key = ESCAPED_PRIVATE_KEY.exec(added.text);
    if (key) {
      return [
        createFinding({
          ruleId: "secrets/privatekey",
          severity: "critical",
          category: "security",
          cwe: "CWE-798",
          path: file.path,
          at: { ...added, quote: maskLine(added.text, [key[2] ?? ""]) },
          message:
            `A secret (${(key[1] ?? "").trim() || "a"} private key, written on one line) is added here. ` +
            "Anyone who can read the repository or its history can use it.",
          fix: SECRET_FIX,
        }),
      ];
    }
    // Tests hold made-up tokens; a guess from entropy alone would be noise there.
    if (test) return [];
    const found = [...added.text.matchAll(ASSIGNED_LITERAL)].find(
      ([, name, , value]) => name && value && SECRET_NAME.test(name) && looksRandom(value),
    );
    if (!found) return [];
    const [, name = "", , value = ""] = found;
    return [
      createFinding({
        ruleId: "secrets/high-entropy-literal",
        severity: "critical",
        category: "security",
        cwe: "CWE-798",
        path: file.path,
        at: { ...added, quote: maskLine(added.text, [value]) },
        message:
          `A secret (\`${name}\`, ${maskSecret(value)}) is written in the code: a random-looking literal ` +
          "given to a name that holds a secret. Anyone who can read the repository or its history can use it.",
        fix: SECRET_FIX,
      }),
    ];
  });
}

export const secretsAnalyzer: Analyzer = {
  name: "secrets",
  async run({ files }) {
    const found = await Promise.all(
      files.map(async (file) => {
        const linted = await fileFindings(file);
        return [...linted, ...ownFindings(file, new Set(linted.map((finding) => finding.line ?? 0)))];
      }),
    );
    return found.flat();
  },
};
