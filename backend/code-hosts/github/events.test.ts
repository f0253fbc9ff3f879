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
