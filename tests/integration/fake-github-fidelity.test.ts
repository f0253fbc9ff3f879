/**
 * The fake GitHub (tests/support/fake-github.ts) stands in for GitHub in every test of sign-in and
 * of the GitHub App, so its answers must be GitHub's: each answer to a call Argus makes is checked
 * against the response schema of GitHub's own OpenAPI description of api.github.com
 * (`@octokit/openapi`). A field the fake leaves out, or gives the wrong type, fails here rather than
 * against GitHub.
 */
import { createPrivateKey } from "node:crypto";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, fakeRepository, startFakeGitHub } from "../support/fake-github.ts";

const DESCRIPTION = "api.github.com";
const require = createRequire(import.meta.url);
// One description only: the package's index loads all ten (GitHub Enterprise's too), over 100 MB.
const description = require(`@octokit/openapi/generated/${DESCRIPTION}.json`) as object;

/**
 * OpenAPI 3.0 puts `nullable: true` beside `allOf` or `$ref` too; Ajv knows `nullable` only beside
 * `type`, so there it becomes "this, or null". Beside `type` with an `enum`, Ajv also wants null in
 * the enum: a nullable enum (a check run's `conclusion` while it runs) gets it.
 */
function withNullsAsJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullsAsJsonSchema);
  if (typeof node !== "object" || node === null) return node;
  const entries = Object.entries(node).map(([key, value]) => [key, withNullsAsJsonSchema(value)] as const);
  const { nullable, ...schema } = Object.fromEntries(entries);
  if (nullable !== true) return Object.fromEntries(entries);
  if ("type" in schema) {
    const values = schema.enum;
    return Array.isArray(values) && !values.includes(null)
      ? { ...schema, nullable, enum: [...values, null] }
      : Object.fromEntries(entries);
  }
  return { anyOf: [schema, { type: "null" }] };
}

// Keywords that are not JSON Schema (`example`, `discriminator`) are ignored (strict: false).
// Formats (date-time, uri) are not checked: Ajv needs another package for them.
const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: false });
ajv.addSchema(withNullsAsJsonSchema(description) as object, DESCRIPTION);

/** The validator of GitHub's documented answer to `method path` with `status`. */
function schemaOf(method: string, path: string, status: number): ValidateFunction {
  const pointer = [
    "paths",
    path,
    method,
    "responses",
    String(status),
    "content",
    "application/json",
    "schema",
  ]
    .map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1"))
    .join("/");
  const validate = ajv.getSchema(`${DESCRIPTION}#/${pointer}`);
  if (!validate) throw new Error(`GitHub documents no ${status} answer of ${method} ${path}`);
  return validate;
}

const ENDPOINTS = {
  app: schemaOf("get", "/app", 200),
  installation: schemaOf("get", "/app/installations/{installation_id}", 200),
  accessToken: schemaOf("post", "/app/installations/{installation_id}/access_tokens", 201),
  repositories: schemaOf("get", "/installation/repositories", 200),
  user: schemaOf("get", "/user", 200),
  publicUser: schemaOf("get", "/users/{username}", 200),
  commits: schemaOf("get", "/repos/{owner}/{repo}/commits", 200),
  emails: schemaOf("get", "/user/emails", 200),
  userInstallations: schemaOf("get", "/user/installations", 200),
  permission: schemaOf("get", "/repos/{owner}/{repo}/collaborators/{username}/permission", 200),
  pullRequest: schemaOf("get", "/repos/{owner}/{repo}/pulls/{pull_number}", 200),
  compare: schemaOf("get", "/repos/{owner}/{repo}/compare/{basehead}", 200),
  contents: schemaOf("get", "/repos/{owner}/{repo}/contents/{path}", 200),
  reviews: schemaOf("get", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", 200),
  createReview: schemaOf("post", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", 200),
  reviewComments: schemaOf("get", "/repos/{owner}/{repo}/pulls/{pull_number}/comments", 200),
  issueComment: schemaOf("post", "/repos/{owner}/{repo}/issues/{issue_number}/comments", 201),
  reaction: schemaOf("post", "/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions", 201),
  sameReaction: schemaOf("post", "/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions", 200),
  createCheckRun: schemaOf("post", "/repos/{owner}/{repo}/check-runs", 201),
  updateCheckRun: schemaOf("patch", "/repos/{owner}/{repo}/check-runs/{check_run_id}", 200),
};

/** Ajv's complaints, readable in a failed expectation; [] when the answer is GitHub's. */
function complaints(validate: ValidateFunction, body: unknown): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
}

describe("the fake GitHub answers in the shapes of GitHub's OpenAPI description", () => {
  let github: FakeGitHub;
  let appJwt: string;
  const INSTALLATION_ID = 4711;

  async function answer(path: string, authorization: string, method = "GET", body?: unknown) {
    const response = await fetch(`${github.url}${path}`, {
      method,
      headers: { authorization, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  beforeAll(async () => {
    github = await startFakeGitHub();
    const now = Math.floor(Date.now() / 1000);
    appJwt = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer(github.appId)
      .setIssuedAt(now - 60)
      .setExpirationTime(now + 480)
      .sign(createPrivateKey(github.appPrivateKey));
    github.addInstallation({
      id: INSTALLATION_ID,
      account: "acme",
      repositories: [fakeRepository("acme", "api", 1), fakeRepository("acme", "web", 2)],
      commits: [
        {
          repository: "acme/api",
          login: "octo-dev",
          name: "Octo",
          email: "o@example.com",
          date: "2026-11-02T10:00:00Z",
        },
        {
          repository: "acme/api",
          login: null,
          name: "Ghost",
          email: "g@example.com",
          date: "2026-11-01T10:00:00Z",
        },
      ],
    });
  });
  afterAll(async () => {
    await github?.close();
  });

  it("GET /app", async () => {
    const { status, body } = await answer("/app", `Bearer ${appJwt}`);
    expect(status).toBe(200);
    expect(complaints(ENDPOINTS.app, body)).toEqual([]);
  });

  it("GET /app/installations/{installation_id}", async () => {
    const { status, body } = await answer(`/app/installations/${INSTALLATION_ID}`, `Bearer ${appJwt}`);
    expect(status).toBe(200);
    expect(complaints(ENDPOINTS.installation, body)).toEqual([]);
  });

  it("POST /app/installations/{installation_id}/access_tokens and GET /installation/repositories", async () => {
    const token = await answer(
      `/app/installations/${INSTALLATION_ID}/access_tokens`,
      `Bearer ${appJwt}`,
      "POST",
    );
    expect(token.status).toBe(201);
    expect(complaints(ENDPOINTS.accessToken, token.body)).toEqual([]);

    const installationToken = (token.body as { token: string }).token;
    const list = await answer("/installation/repositories?per_page=1&page=2", `token ${installationToken}`);
    expect(list.status).toBe(200);
    expect((list.body as { repositories: unknown[] }).repositories).toHaveLength(1);
    expect(complaints(ENDPOINTS.repositories, list.body)).toEqual([]);
  });

  it("GET /user and GET /user/emails", async () => {
    const accessToken = github.addUser({
      id: 31_337,
      login: "octo-dev",
      name: null,
      emails: [
        { email: "octo@example.com", primary: true, verified: true, visibility: "public" },
        { email: "octo@users.noreply.github.com", primary: false, verified: true },
      ],
    });
    const user = await answer("/user", `token ${accessToken}`);
    expect(user.status).toBe(200);
    expect(complaints(ENDPOINTS.user, user.body)).toEqual([]);

    const emails = await answer("/user/emails", `token ${accessToken}`);
    expect(emails.status).toBe(200);
    expect(complaints(ENDPOINTS.emails, emails.body)).toEqual([]);
  });

  it("the App's setup code and GET /user/installations", async () => {
    const accessToken = github.addUser({ id: 5_005, login: "installer", name: null, emails: [] });
    const exchange = async (clientId: string, clientSecret: string, code: string) => {
      const response = await fetch(`${github.url}/login/oauth/access_token`, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, code }),
      });
      return (await response.json()) as Record<string, unknown>;
    };
    // A code of the App's client does not exchange with another client, and works once.
    expect((await exchange(github.clientId, github.clientSecret, github.appCode(accessToken))).error).toBe(
      "bad_verification_code",
    );
    const code = github.appCode(accessToken);
    const exchanged = await exchange(github.appClientId, github.appClientSecret, code);
    // GitHub's documented answer for a user access token of an App.
    expect(exchanged).toEqual({
      access_token: expect.stringMatching(/^ghu_/),
      expires_in: 28_800,
      refresh_token: expect.stringMatching(/^ghr_/),
      refresh_token_expires_in: 15_897_600,
      token_type: "bearer",
      scope: "",
    });
    expect((await exchange(github.appClientId, github.appClientSecret, code)).error).toBe(
      "bad_verification_code",
    );

    github.addInstallation({
      id: 4_712,
      account: "installer-org",
      repositories: [],
      accessibleTo: ["installer"],
    });
    const listed = await answer("/user/installations?per_page=1&page=1", `token ${exchanged.access_token}`);
    expect(listed.status).toBe(200);
    expect((listed.body as { installations: Array<{ id: number }> }).installations.map((i) => i.id)).toEqual([
      4_712,
    ]);
    expect(complaints(ENDPOINTS.userInstallations, listed.body)).toEqual([]);
    // Only a user access token of the App lists installations.
    expect((await answer("/user/installations", `token ${accessToken}`)).status).toBe(403);
  });

  it("GET /repos/{owner}/{repo}/collaborators/{username}/permission", async () => {
    github.addUser({ id: 6_006, login: "maintainer", name: null, emails: [] });
    github.addUser({ id: 6_007, login: "bystander", name: null, emails: [] });
    github.setRole("acme/web", "maintainer", "maintain");
    const token = await answer(
      `/app/installations/${INSTALLATION_ID}/access_tokens`,
      `Bearer ${appJwt}`,
      "POST",
    );
    const authorization = `token ${(token.body as { token: string }).token}`;
    const maintainer = await answer("/repos/acme/web/collaborators/maintainer/permission", authorization);
    expect(maintainer.status).toBe(200);
    expect(maintainer.body).toMatchObject({ permission: "write", role_name: "maintain" });
    expect(complaints(ENDPOINTS.permission, maintainer.body)).toEqual([]);
    const bystander = await answer("/repos/acme/web/collaborators/bystander/permission", authorization);
    expect(bystander.body).toMatchObject({ permission: "none" });
    expect(complaints(ENDPOINTS.permission, bystander.body)).toEqual([]);
    expect(
      (await answer("/repos/acme/web/collaborators/nobody-at-all/permission", authorization)).status,
    ).toBe(404);
  });

  it("GET /repos/{owner}/{repo}/commits and GET /users/{username}", async () => {
    github.addUser({
      id: 4242,
      login: "someone-else",
      name: "Someone Else",
      emails: [{ email: "else@example.com", primary: true, verified: true, visibility: "public" }],
    });
    const token = await answer(
      `/app/installations/${INSTALLATION_ID}/access_tokens`,
      `Bearer ${appJwt}`,
      "POST",
    );
    const authorization = `token ${(token.body as { token: string }).token}`;
    const commits = await answer("/repos/acme/api/commits?per_page=100", authorization);
    expect(commits.status).toBe(200);
    expect(commits.body).toHaveLength(2);
    expect(complaints(ENDPOINTS.commits, commits.body)).toEqual([]);

    const user = await answer("/users/Someone-Else", authorization);
    expect(user.status).toBe(200);
    expect(complaints(ENDPOINTS.publicUser, user.body)).toEqual([]);
    expect((await answer("/users/nobody-here", authorization)).status).toBe(404);
  });

  it("the pull-request calls of the review engine", async () => {
    const base = "1".repeat(40);
    const head = "2".repeat(40);
    github.pulls.addPullRequest("acme/web", {
      number: 3,
      title: "A change",
      author: { login: "octocat", type: "User" },
      head: { ref: "feature", sha: head },
      base: { ref: "main", sha: base },
    });
    github.pulls.setContent("acme/web", base, ".argus/rules/no-console.yml", "id: no-console\n");
    github.pulls.setContent("acme/web", base, ".argus/rules/shared/util.yml", "id: util\n");
    github.pulls.setDiff("acme/web", base, head, [
      { filename: "a.ts", status: "modified", patch: "@@ -1,1 +1,2 @@\n a\n+b" },
    ]);
    const token = await answer(
      `/app/installations/${INSTALLATION_ID}/access_tokens`,
      `Bearer ${appJwt}`,
      "POST",
    );
    const auth = `token ${(token.body as { token: string }).token}`;
    const repo = "/repos/acme/web";
    const checks: Array<[ValidateFunction, { status: number; body: unknown }, number]> = [
      [ENDPOINTS.pullRequest, await answer(`${repo}/pulls/3`, auth), 200],
      [ENDPOINTS.compare, await answer(`${repo}/compare/${base}...${head}`, auth), 200],
      // A folder: team rules are listed with it (.argus/rules at the base).
      [ENDPOINTS.contents, await answer(`${repo}/contents/.argus/rules?ref=${base}`, auth), 200],
      [
        ENDPOINTS.createReview,
        await answer(`${repo}/pulls/3/reviews`, auth, "POST", {
          commit_id: head,
          body: "Summary",
          event: "COMMENT",
          comments: [{ path: "a.ts", line: 2, side: "RIGHT", body: "Here" }],
        }),
        200,
      ],
      [ENDPOINTS.reviews, await answer(`${repo}/pulls/3/reviews`, auth), 200],
      [ENDPOINTS.reviewComments, await answer(`${repo}/pulls/3/comments`, auth), 200],
      [ENDPOINTS.issueComment, await answer(`${repo}/issues/3/comments`, auth, "POST", { body: "Hi" }), 201],
    ];
    const checkRun = await answer(`${repo}/check-runs`, auth, "POST", {
      name: "Argus review",
      head_sha: head,
      status: "in_progress",
      details_url: "https://argus.example/reviews/1",
      output: { title: "Reviewing", summary: "Under way" },
    });
    checks.push([ENDPOINTS.createCheckRun, checkRun, 201]);
    checks.push([
      ENDPOINTS.updateCheckRun,
      await answer(`${repo}/check-runs/${(checkRun.body as { id: number }).id}`, auth, "PATCH", {
        status: "completed",
        conclusion: "success",
        output: { title: "No new findings", summary: "Nothing new" },
      }),
      200,
    ]);
    for (const [validate, { status, body }, expected] of checks) {
      expect(status).toBe(expected);
      expect(complaints(validate, body)).toEqual([]);
    }

    // People react to a review comment with their own token; the comments list carries the rollup.
    const person = `token ${github.addUser({ id: 5150, login: "reviewer", name: null, emails: [] })}`;
    const [comment] = (await answer(`${repo}/pulls/3/comments`, person)).body as Array<{ id: number }>;
    const reactions = `${repo}/pulls/comments/${comment?.id}/reactions`;
    const down = await answer(reactions, person, "POST", { content: "-1" });
    expect(down.status).toBe(201);
    expect(complaints(ENDPOINTS.reaction, down.body)).toEqual([]);
    const again = await answer(reactions, person, "POST", { content: "-1" });
    expect(again.status).toBe(200);
    expect(complaints(ENDPOINTS.sameReaction, again.body)).toEqual([]);
    expect((await answer(reactions, person, "POST", { content: "+1" })).status).toBe(201);
    expect((await answer(reactions, person, "POST", { content: "thumbsdown" })).status).toBe(422);
    const listed = await answer(`${repo}/pulls/3/comments`, auth);
    expect(complaints(ENDPOINTS.reviewComments, listed.body)).toEqual([]);
    expect((listed.body as Array<{ reactions: unknown }>)[0]?.reactions).toMatchObject({
      total_count: 2,
      "+1": 1,
      "-1": 1,
      heart: 0,
    });
    const removed = await fetch(`${github.url}${reactions}/${(down.body as { id: number }).id}`, {
      method: "DELETE",
      headers: { authorization: person },
    });
    expect(removed.status).toBe(204);
    const after = (await answer(`${repo}/pulls/3/comments`, auth)).body as Array<{ reactions: unknown }>;
    expect(after[0]?.reactions).toMatchObject({ total_count: 1, "+1": 1, "-1": 0 });
    // A person's token does not post reviews.
    expect((await answer(`${repo}/pulls/3/reviews`, person, "POST", { body: "x" })).status).toBe(404);

    const outside = await answer(`${repo}/pulls/3/reviews`, auth, "POST", {
      commit_id: head,
      body: "Summary",
      event: "COMMENT",
      comments: [{ path: "a.ts", line: 9, side: "RIGHT", body: "Outside" }],
    });
    expect(outside.status).toBe(422);
    // GitHub's 422 answer here is its shared "validation failed" response.
    const validationFailed = ajv.getSchema(`${DESCRIPTION}#/components/schemas/validation-error-simple`);
    if (!validationFailed) throw new Error("GitHub documents no validation-error-simple");
    expect(complaints(validationFailed, outside.body)).toEqual([]);
  });

  it("would catch a fake that drops a required field or gives it the wrong type", async () => {
    const app = (await answer("/app", `Bearer ${appJwt}`)).body as Record<string, unknown>;
    const { html_url: _dropped, ...withoutHtmlUrl } = app;
    expect(complaints(ENDPOINTS.app, withoutHtmlUrl)).toContain("/ must have required property 'html_url'");
    expect(complaints(ENDPOINTS.app, { ...app, id: String(app.id) })).not.toEqual([]);

    const token = await answer(
      `/app/installations/${INSTALLATION_ID}/access_tokens`,
      `Bearer ${appJwt}`,
      "POST",
    );
    const installationToken = (token.body as { token: string }).token;
    const list = (await answer("/installation/repositories", `token ${installationToken}`)).body as {
      repositories: Record<string, unknown>[];
    };
    const [first, ...others] = list.repositories;
    const { full_name: _name, ...withoutFullName } = first ?? {};
    expect(
      complaints(ENDPOINTS.repositories, { ...list, repositories: [withoutFullName, ...others] }),
    ).not.toEqual([]);
  });
});
