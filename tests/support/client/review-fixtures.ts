/** Review runs and sandbox pull requests as the backend answers them, for the jsdom tests. */
import type { ReviewRunDetail, ReviewRunSummary } from "../../../shared/contract/reviews.ts";
import type {
  SandboxPullDetail,
  SandboxPullsData,
  SandboxReactions,
} from "../../../shared/contract/sandbox.ts";

export const RUN_ID = "7d3f0b52-9a43-4c55-8f8a-1f1c7e0b1a01";
export const PROJECT_ID = "0b8f7c1e-5f3a-4d2b-9c4e-6a7b8c9d0e1f";
export const PULL_ID = "4a5b6c7d-8e9f-4a0b-8c1d-2e3f4a5b6c7d";

export function runSummary(overrides: Partial<ReviewRunSummary> = {}): ReviewRunSummary {
  return {
    id: RUN_ID,
    projectId: PROJECT_ID,
    repository: "argus-sandbox/web-app",
    pullRequest: 3,
    pullRequestTitle: "Add the GitHub client token to the config",
    pullRequestUrl: `/sandbox/pulls/${PULL_ID}`,
    status: "succeeded",
    trigger: "opened",
    command: null,
    headSha: "a".repeat(40),
    queuedAt: "2026-01-05T10:00:00.000Z",
    startedAt: "2026-01-05T10:00:01.000Z",
    finishedAt: "2026-01-05T10:00:03.500Z",
    durationMs: 2500,
    findingsTotal: 2,
    findingsPosted: 1,
    reason: null,
    shadow: false,
    ...overrides,
  };
}

export function runDetail(overrides: Partial<ReviewRunDetail> = {}): ReviewRunDetail {
  return {
    ...runSummary(),
    headCommitUrl: null,
    decisions: [
      { step: "event", outcome: "queued", detail: { trigger: "opened" }, at: "2026-01-05T10:00:00.000Z" },
      { step: "triage.draft", outcome: "pass", detail: {}, at: "2026-01-05T10:00:01.000Z" },
      {
        step: "rules.team",
        outcome: "none",
        detail: { folder: ".argus/rules", patterns: ["*.yml", "*.yaml"] },
        at: "2026-01-05T10:00:01.250Z",
      },
      { step: "post", outcome: "posted", detail: { inline: 1, summary: 1 }, at: "2026-01-05T10:00:03.000Z" },
    ],
    findings: [
      {
        finding: {
          ruleId: "secrets/github",
          severity: "critical",
          path: "src/config.ts",
          line: 17,
          quote: 'githubToken: env.GITHUB_TOKEN ?? "ghp_****"',
          message: "A GitHub token is committed.",
          category: "security",
          cwe: "CWE-798",
          fix: "Revoke it now, then load it from the environment or a secret store.",
          fingerprint: "a".repeat(64),
          source: "builtin",
        },
        delivery: "inline",
        shadowDelivery: null,
        notPostedReason: null,
        feedback: { thumbsUp: 2, thumbsDown: 0 },
      },
      {
        finding: {
          ruleId: "size/oversized-pull-request",
          severity: "info",
          path: null,
          line: null,
          quote: null,
          message: "A large pull request.",
          category: "hygiene",
          fingerprint: "b".repeat(64),
          source: "builtin",
        },
        delivery: "summary",
        shadowDelivery: null,
        notPostedReason: null,
        feedback: { thumbsUp: 0, thumbsDown: 0 },
      },
    ],
    ai: null,
    ...overrides,
  };
}

export function pullsData(overrides: Partial<SandboxPullsData> = {}): SandboxPullsData {
  return {
    repository: { id: PROJECT_ID, fullName: "argus-sandbox/web-app", defaultBranch: "main" },
    templates: [
      {
        id: "leaked-key",
        title: "Add the GitHub client token to the config",
        description: "Commits an access token.",
        path: "src/config.ts",
      },
      {
        id: "clean-change",
        title: "Compute the cart total with reduce",
        description: "Clean.",
        path: "src/cart.ts",
      },
    ],
    files: [
      { path: "README.md", content: "# Sample\n" },
      { path: "src/cart.ts", content: "export const total = 0;\n" },
    ],
    pulls: [],
    ...overrides,
  };
}

export function pullDetail(overrides: Partial<SandboxPullDetail> = {}): SandboxPullDetail {
  const headSha = "c".repeat(40);
  return {
    id: PULL_ID,
    number: 1,
    title: "Add the GitHub client token to the config",
    author: "Ada Lovelace",
    headSha,
    createdAt: "2026-01-05T10:00:00.000Z",
    updatedAt: "2026-01-05T10:00:00.000Z",
    projectId: PROJECT_ID,
    repository: "argus-sandbox/web-app",
    baseSha: "b".repeat(40),
    baseRef: "main",
    headRef: "sandbox/pull-1",
    files: [
      {
        path: "src/config.ts",
        status: "modified",
        additions: 1,
        deletions: 0,
        headContent: 'export const config = {\n  token: "ghp_secret",\n};\n',
        hunks: [
          {
            header: "@@ -1,2 +1,3 @@",
            lines: [
              { kind: "context", text: "export const config = {", oldLine: 1, newLine: 1 },
              { kind: "add", text: '  token: "ghp_secret",', oldLine: null, newLine: 2 },
              { kind: "context", text: "};", oldLine: 2, newLine: 3 },
            ],
          },
        ],
      },
    ],
    reviews: [],
    checks: [],
    latestRun: { id: RUN_ID, status: "succeeded" },
    ...overrides,
  };
}

/** The pull request once Argus reviewed it: one critical line comment with the given reactions. */
export function reviewedPullDetail(reactions: SandboxReactions): SandboxPullDetail {
  return pullDetail({
    reviews: [
      {
        id: 1,
        kind: "review",
        author: null,
        commitId: "c".repeat(40),
        body: "Argus found 1 critical problem.",
        createdAt: "2026-01-05T10:00:03.000Z",
        comments: [
          {
            id: 10,
            path: "src/config.ts",
            line: 2,
            side: "RIGHT",
            commitId: "c".repeat(40),
            body: "A GitHub token is committed (secrets/github).",
            reactions,
            resolved: false,
          },
        ],
      },
    ],
  });
}
