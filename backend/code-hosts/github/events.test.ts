import { describe, expect, it } from "vitest";
import { webhookExample } from "../../../tests/support/github-webhook-examples.ts";
import { githubReviewEvent } from "./events.ts";

/** A `@argus pause` comment by `octo` on pull request 7 of acme/web, installation 11. */
function pauseComment() {
  const payload = webhookExample("issue_comment", "created");
  payload.installation = { id: 11, node_id: "I_11" };
  payload.repository = { ...payload.repository, id: 110, full_name: "acme/web" };
  payload.issue.number = 7;
  payload.issue.pull_request = {
    url: "https://api.github.com/repos/acme/web/pulls/7",
    html_url: "https://github.com/acme/web/pull/7",
    diff_url: "https://github.com/acme/web/pull/7.diff",
    patch_url: "https://github.com/acme/web/pull/7.patch",
  };
  payload.comment.body = "@argus pause";
  payload.comment.user.login = "octo";
  return payload;
}

describe("a GitHub bot command", () => {
  it("asks who may give it about the commenter on that repository of the installation", async () => {
    const asked: string[][] = [];
    const event = await githubReviewEvent("issue_comment", pauseComment(), {
      productName: "Argus",
      commandAccess: async (...question) => {
        asked.push(question);
        return true;
      },
    });
    expect(asked).toEqual([["11", "acme/web", "octo"]]);
    expect(event).toMatchObject({ kind: "review", command: "pause", pullRequest: 7 });
  });

  it("is ignored, with the reason, when the commenter may not give it or nobody can check", async () => {
    const refused = await githubReviewEvent("issue_comment", pauseComment(), {
      productName: "Argus",
      commandAccess: async () => false,
    });
    expect(refused).toEqual({
      kind: "ignored",
      reason: "octo may not command reviews (no write access to acme/web)",
    });
    expect(await githubReviewEvent("issue_comment", pauseComment(), { productName: "Argus" })).toEqual({
      kind: "ignored",
      reason: "commands need a GitHub App to check who gives them",
    });
  });
});

/** "Re-run" pressed by `octo` on the review's check run of pull request 7 of acme/web, installation 11. */
function rerunOfReviewCheck() {
  const payload = webhookExample("check_run", "rerequested");
  payload.installation = { id: 11, node_id: "I_11" };
  payload.repository = { ...payload.repository, id: 110, full_name: "acme/web" };
  payload.check_run.name = "Argus review";
  const side = (ref: string, sha: string) => ({
    ref,
    sha,
    repo: { id: 110, url: "https://api.github.com/repos/acme/web", name: "web" },
  });
  payload.check_run.pull_requests = [
    {
      id: 1007,
      number: 7,
      url: "https://api.github.com/repos/acme/web/pulls/7",
      head: side("feature", payload.check_run.head_sha),
      base: side("main", "b".repeat(40)),
    },
  ];
  payload.sender = { ...payload.sender, login: "octo" };
  return payload;
}

describe("Re-run on the review's check", () => {
  it("asks for a review of its pull request, as the person who pressed it would with a command", async () => {
    const asked: string[][] = [];
    const event = await githubReviewEvent("check_run", rerunOfReviewCheck(), {
      productName: "Argus",
      commandAccess: async (...question) => {
        asked.push(question);
        return true;
      },
    });
    expect(asked).toEqual([["11", "acme/web", "octo"]]);
    expect(event).toEqual({
      kind: "review",
      repository: { integration: "github", key: "11", externalId: "110" },
      pullRequest: 7,
      trigger: "command",
      command: "review",
    });
  });

  it("is ignored, with the reason, for another check, another action, no pull request or a refused person", async () => {
    const options = { productName: "Argus", commandAccess: async () => true };
    const other = rerunOfReviewCheck();
    other.check_run.name = "ci / build";
    const created = { ...rerunOfReviewCheck(), action: "created" };
    const nowhere = rerunOfReviewCheck();
    nowhere.check_run.pull_requests = [];
    expect(await githubReviewEvent("check_run", other, options)).toEqual({
      kind: "ignored",
      reason: "check run ci / build is not the review's",
    });
    expect(await githubReviewEvent("check_run", created, options)).toEqual({
      kind: "ignored",
      reason: "check run created",
    });
    expect(await githubReviewEvent("check_run", nowhere, options)).toEqual({
      kind: "ignored",
      reason: "the check run is on no open pull request",
    });
    expect(
      await githubReviewEvent("check_run", rerunOfReviewCheck(), {
        ...options,
        commandAccess: async () => false,
      }),
    ).toEqual({ kind: "ignored", reason: "octo may not command reviews (no write access to acme/web)" });
  });
});
