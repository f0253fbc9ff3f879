import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCorpus } from "../corpus.ts";
import { banditCategory, parseBanditReport } from "./bandit.ts";
import { eslintCategory, parseEslintOutput } from "./eslint.ts";
import { goImports, goVetCategory, parseGoVetJson, unbuildableReason } from "./go-vet.ts";
import { runPeers } from "./index.ts";
import type { Peer } from "./peer.ts";
import { scorePeer } from "./score.ts";
import { parseSecretlintReport } from "./secretlint.ts";

// Real outputs of each tool, run here on cases of the written corpus (and, for go vet and bandit's
// parse error, on small files written for the fixture): bench/review-quality/peers/fixtures/.
const fixture = (name: string) => readFile(path.join(import.meta.dirname, "fixtures", name), "utf8");

describe("bandit", () => {
  it("reads its JSON report per case, a file it cannot parse making its case not run", async () => {
    const ids = [
      "py-03-thumbnail-shell",
      "py-06-password-md5",
      "py-10-invoice-number-tests",
      "py-99-python2",
      "py-02-aws-key",
    ];
    const results = parseBanditReport(await fixture("bandit.json"), ids);
    expect(results.get("py-03-thumbnail-shell")).toEqual({
      status: "ran",
      findings: [
        { path: "media/thumbnails.py", line: 2, ruleId: "B404", category: "security" },
        { path: "media/thumbnails.py", line: 17, ruleId: "B602", category: "security" },
      ],
    });
    expect(results.get("py-10-invoice-number-tests")).toMatchObject({
      status: "ran",
      findings: [
        { ruleId: "B101", category: null },
        { ruleId: "B101", category: null },
      ],
    });
    expect(results.get("py-99-python2")).toEqual({
      status: "not run",
      reason: "legacy.py: syntax error while parsing AST from file",
    });
    expect(results.get("py-02-aws-key")).toEqual({ status: "ran", findings: [] });
  });

  it("maps every test to security but the three style ones", () => {
    expect(["B608", "B602", "B303", "B307", "B105"].map(banditCategory)).toEqual(Array(5).fill("security"));
    expect(["B101", "B110", "B112"].map(banditCategory)).toEqual([null, null, null]);
  });
});

describe("ESLint", () => {
  it("reads the runner's results per case, TypeScript stripped in place", async () => {
    const ids = ["ts-01-user-search-sql", "ts-02-github-token", "ts-05-download-path-traversal"];
    const results = parseEslintOutput(await fixture("eslint.json"), ids);
    expect(results.get("ts-05-download-path-traversal")).toEqual({
      status: "ran",
      findings: [
        {
          path: "src/attachments/routes.ts",
          line: 16,
          ruleId: "security/detect-non-literal-fs-filename",
          category: "security",
        },
      ],
    });
    // ts-01 has a constructor parameter property: parsed once its modifiers are blanked.
    expect(results.get("ts-01-user-search-sql")).toEqual({ status: "ran", findings: [] });
  });

  it("makes a case whose file does not parse not run", () => {
    const output = JSON.stringify([
      { file: "ts-09-x/src/a.ts", parsedAs: null, error: "does not parse: 3:1 Unexpected token" },
    ]);
    expect(parseEslintOutput(output, ["ts-09-x"]).get("ts-09-x")).toEqual({
      status: "not run",
      reason: "src/a.ts: does not parse: 3:1 Unexpected token",
    });
  });

  it("maps the two plugins' rules to security and core rules to none", () => {
    expect(eslintCategory("security/detect-object-injection")).toBe("security");
    expect(eslintCategory("no-unsanitized/method")).toBe("security");
    expect(eslintCategory("no-unused-vars")).toBeNull();
  });
});

describe("secretlint", () => {
  it("reads its JSON report per case", async () => {
    const ids = ["ts-02-github-token", "go-05-slack-token", "py-02-aws-key"];
    const results = parseSecretlintReport(await fixture("secretlint.json"), "/scratch", ids);
    expect(results.get("ts-02-github-token")).toEqual({
      status: "ran",
      findings: [
        {
          path: "src/releases/client.ts",
          line: 2,
          ruleId: "@secretlint/secretlint-rule-github",
          category: "security",
        },
      ],
    });
    expect(results.get("go-05-slack-token")).toMatchObject({
      findings: [{ path: "internal/notify/slack.go", line: 9, category: "security" }],
    });
    expect(results.get("py-02-aws-key")).toEqual({ status: "ran", findings: [] });
  });
});

describe("go vet", () => {
  it("reads -json output, each analyzer mapped to a category", async () => {
    expect(parseGoVetJson(await fixture("go-vet.stderr.txt"), "/scratch/vetted")).toEqual([
      { path: "jobs/run.go", line: 10, ruleId: "lostcancel", category: "resource-leak" },
      { path: "jobs/run.go", line: 12, ruleId: "printf", category: "logic" },
    ]);
    expect([goVetCategory("copylocks"), goVetCategory("structtag")]).toEqual(["race", null]);
  });

  it("does not run a case whose imports need the module proxy", async () => {
    expect(goImports('package a\n\nimport (\n\t"fmt"\n\tx "github.com/a/b"\n)\nimport "os"\n')).toEqual([
      "fmt",
      "github.com/a/b",
      "os",
    ]);
    const { cases } = await loadCorpus({ only: ["go-03-rows-not-closed"], sources: "" });
    const [rows] = cases;
    if (!rows) throw new Error("no case");
    expect(unbuildableReason(rows)).toBeNull();
    const withImport = new Map(rows.head);
    withImport.set("extra.go", 'package orders\n\nimport "github.com/lib/pq"\n');
    expect(unbuildableReason({ ...rows, head: withImport })).toBe(
      "imports github.com/lib/pq (no module proxy here)",
    );
  });
});

describe("runPeers and scorePeer", () => {
  it("keeps findings on added lines only, scores them with the matcher, and reports a missing tool", async () => {
    const { cases } = await loadCorpus({
      only: ["ts-01-user-search-sql", "ts-08-rename-price-helper"],
      sources: "",
    });
    const sql = cases.find((each) => each.id === "ts-01-user-search-sql");
    if (!sql) throw new Error("no case");
    const [defect] = sql.defects;
    // A fake peer that flags the defect's line (added), line 1 (context: dropped) and, on the clean
    // case, one logic finding on an added line.
    const fake: Peer = {
      name: "fake",
      languages: ["ts"],
      version: async () => "fake 1",
      run: async () =>
        new Map([
          [
            "ts-01-user-search-sql",
            {
              status: "ran",
              findings: [
                { path: defect?.path ?? "", line: defect?.line ?? 0, ruleId: "sql", category: "security" },
                { path: defect?.path ?? "", line: 1, ruleId: "sql", category: "security" },
              ],
            },
          ],
          ["ts-08-rename-price-helper", { status: "ran", findings: [] }],
        ]),
    };
    const missing: Peer = { ...fake, name: "missing", version: async () => null };
    const [ran, absent] = await runPeers(cases, [fake, missing]);
    expect(ran?.results.get("ts-01-user-search-sql")).toMatchObject({
      status: "ran",
      findings: [{ line: defect?.line }],
    });
    expect(absent).toMatchObject({ peer: "missing", installed: false, version: "not installed" });
    if (!ran) throw new Error("no run");
    const score = scorePeer(ran, cases);
    expect(score.recall.recall).toEqual({ count: 1, total: 1, share: 1 });
    expect(score.recall.byLanguage.ts).toEqual({ count: 1, total: 1, share: 1 });
    expect(score).toMatchObject({ inScope: 2, ran: 2, findingsOnClean: 0, cleanRan: 1, perCleanCase: 0 });
  });
});
