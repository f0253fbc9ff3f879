import { describe, expect, it } from "vitest";
import { DEFAULT_PRODUCT_NAME } from "../../../shared/constants.ts";
import { sandboxTemplateIdSchema } from "../../../shared/contract/sandbox.ts";
import { fromPullRequestFiles } from "../../review/pipeline/diff.ts";
import { reviewBuiltIn } from "../../review/reviewers/builtin/index.ts";
import { filePatch } from "./line-diff.ts";
import { baseTree, TEMPLATES, templateOf } from "./samples.ts";

const BASE_TREE = baseTree(DEFAULT_PRODUCT_NAME);

/** The built-in reviewer's findings on a template's change, as a pull request would show it. */
async function findingsOf(id: (typeof TEMPLATES)[number]["id"]) {
  const template = templateOf(id);
  const before = BASE_TREE[template.path] ?? null;
  const { patch, additions, deletions } = filePatch(before, template.content);
  const files = fromPullRequestFiles([
    { filename: template.path, status: "modified", additions, deletions, patch },
  ]).map((file) => ({ ...file, content: template.content }));
  // The pipeline fetches the modules a change calls into; here they are the base tree's.
  return (await reviewBuiltIn(files, { related: new Map(Object.entries(BASE_TREE)) })).findings;
}

describe("sandbox templates", () => {
  it("has one template per id, each changing a file of the base tree", () => {
    expect(TEMPLATES.map((template) => template.id)).toEqual(sandboxTemplateIdSchema.options);
    for (const template of TEMPLATES) {
      expect(BASE_TREE[template.path], template.id).toBeDefined();
      expect(template.content).not.toBe(BASE_TREE[template.path]);
    }
  });

  it.each([
    ["leaked-key", "secrets/github", "critical", "githubToken: env.GITHUB_TOKEN"],
    ["focused-test", "markers/focused-test", "major", "it.only("],
    ["conflict-marker", "markers/conflict", "major", "<<<<<<< HEAD"],
    ["sql-injection", "sql-injection/py-raw-query", "critical", `WHERE country = '{country}'`],
    ["off-by-one", "logic/js-loop-past-end", "major", "for (let i = 0; i <= items.length; i++)"],
    [
      "unawaited-check",
      "logic/js-unawaited-async-condition",
      "major",
      "if (!inStock(line.sku, line.quantity))",
    ],
  ] as const)("%s makes the built-in reviewer report %s on its line", async (id, ruleId, severity, text) => {
    const findings = await findingsOf(id);
    const finding = findings.find((candidate) => candidate.ruleId === ruleId);
    expect(finding).toMatchObject({ severity, path: templateOf(id).path });
    const line = finding?.line ?? 0;
    // The line number points at the head text's line the finding is about.
    expect(templateOf(id).content.split("\n")[line - 1]).toContain(text);
    expect(
      findings.every((candidate) => candidate.ruleId === ruleId || candidate.severity !== "critical"),
    ).toBe(true);
  });

  it("the clean change gets no findings", async () => {
    expect(await findingsOf("clean-change")).toEqual([]);
  });
});
