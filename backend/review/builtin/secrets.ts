/**
 * Secrets on added lines, found by secretlint with its recommended rules (AWS access key ids
 * included). Each file's added lines are linted together, a "@@" line between separate runs, so a
 * private key spanning several added lines is still seen.
 *
 * A secret never travels further than the diff already took it: the message names only the kind of
 * secret and a masked form, and the quote masks the secret in the line; the fingerprint is a hash of
 * the real line (fingerprint() in ../findings.ts).
 */
import { lintSource } from "@secretlint/core";
import { creator as recommendedPreset } from "@secretlint/secretlint-rule-preset-recommend";
import type { Finding } from "../../../shared/review-contract.ts";
import type { DiffFile } from "../diff.ts";
import { createFinding } from "../findings.ts";
import type { Analyzer } from "./analyzer.ts";

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
  for (const part of secrets.flatMap((secret) => secret.split("\n"))) {
    if (part.length >= 8 && !part.startsWith("-----")) masked = masked.replaceAll(part, maskSecret(part));
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
        path: file.path,
        at: { ...at, quote: maskLine(at.text, secrets) },
        message:
          `A secret (${describeSecret(name, secrets[0] ?? "")}) is added here. Anyone ` +
          "who can read the repository or its history can use it: revoke it now, then load it from " +
          "the environment or a secret store.",
      }),
    ];
  });
}

export const secretsAnalyzer: Analyzer = {
  name: "secrets",
  async run({ files }) {
    return (await Promise.all(files.map(fileFindings))).flat();
  },
};
