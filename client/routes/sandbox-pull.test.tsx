import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SandboxPullDetail } from "../../shared/contract/sandbox.ts";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import { PULL_ID, pullDetail, RUN_ID, reviewedPullDetail } from "../../tests/support/client/review-fixtures";
import SandboxPull, { loader } from "./sandbox-pull";

const fetchMock = vi.fn<typeof fetch>();
/** What each GET of the pull request answers, in turn; the last one repeats. */
let answers: SandboxPullDetail[];
/** Bodies POSTed as commits. */
let pushed: unknown[];
/** Bodies POSTed as comments. */
let commented: unknown[];

const REVIEWED = reviewedPullDetail({ "+1": 1, "-1": 0, mine: [] });

beforeEach(() => {
  answers = [REVIEWED];
  pushed = [];
  commented = [];
  vi.stubGlobal("fetch", fetchMock);
  fetchMock.mockImplementation(async (input, init) => {
    if (String(input) === `/api/sandbox/pulls/${PULL_ID}/commits` && init?.method === "POST") {
      pushed.push(JSON.parse(String(init.body)));
      return jsonResponse({ success: true, data: { id: PULL_ID, number: 1, headSha: "e".repeat(40) } }, 201);
    }
    if (String(input) === `/api/sandbox/pulls/${PULL_ID}/comments` && init?.method === "POST") {
      const body = JSON.parse(String(init.body)) as { body: string };
      commented.push(body);
      const command = body.body.includes("@argus review") ? "review" : null;
      return jsonResponse({ success: true, data: { id: 7, command, runId: command ? RUN_ID : null } }, 201);
    }
    if (String(input) === `http://backend.test/api/sandbox/pulls/${PULL_ID}`) {
      const data = answers.length > 1 ? answers.shift() : answers[0];
      return jsonResponse({ success: true, data });
    }
    if (String(input).startsWith("http://backend.test/api/sandbox/pulls/"))
      return jsonResponse({ error: "Not found" }, 404);
    throw new Error(`unexpected fetch ${String(input)}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const renderPull = (id = PULL_ID) =>
  renderPage({ path: "sandbox/pulls/:pullId", loader, Component: SandboxPull }, `/sandbox/pulls/${id}`);

describe("/sandbox/pulls/:pullId", () => {
  it("shows the diff with the review comment under its line and the summary in the conversation", async () => {
    renderPull();
    expect(
      await screen.findByRole("heading", { name: /Add the GitHub client token to the config/ }),
    ).toBeInTheDocument();
    expect(screen.getAllByText("Sandbox")[0]).toBeVisible();
    expect(screen.getByRole("link", { name: "See its decision log" })).toHaveAttribute(
      "href",
      `/reviews/${RUN_ID}`,
    );
    const conversation = screen.getByRole("region", { name: "Conversation" });
    expect(within(conversation).getByRole("article", { name: "Review" })).toHaveTextContent(
      "Argus found 1 critical problem.",
    );

    const table = screen.getByRole("table", { name: "Changes to src/config.ts" });
    const rows = within(table).getAllByRole("row");
    const tokenRow = rows.findIndex((row) => row.textContent?.includes('token: "ghp_secret"'));
    expect(rows[tokenRow]).toHaveTextContent(/^2Added: \+/);
    // The comment is the row right under its line.
    expect(
      within(rows[tokenRow + 1] as HTMLElement).getByRole("article", {
        name: "Review comment on src/config.ts line 2",
      }),
    ).toHaveTextContent("A GitHub token is committed (secrets/github).");
  });

  it("reloads while the review runs and shows it once posted", async () => {
    answers = [pullDetail({ latestRun: { id: RUN_ID, status: "running" } }), REVIEWED];
    renderPull();
    expect(await screen.findByText("Running")).toBeInTheDocument();
    expect(screen.getByText("Nothing posted yet.")).toBeInTheDocument();
    expect(
      await screen.findByText("Argus found 1 critical problem.", {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(screen.getByText("Succeeded")).toBeInTheDocument();
  });

  it("shows the review's check on the head commit, in progress and then concluded, with its details", async () => {
    const check = {
      id: 3,
      name: "Argus review",
      conclusion: null,
      title: "Reviewing",
      summary: "The review of this commit is under way.",
      detailsUrl: `http://127.0.0.1:3000/reviews/${RUN_ID}`,
    };
    answers = [
      pullDetail({ latestRun: { id: RUN_ID, status: "running" }, checks: [check] }),
      pullDetail({
        checks: [
          { ...check, conclusion: "success", title: "1 new finding", summary: "The comments are posted." },
        ],
      }),
    ];
    renderPull();
    const checks = await screen.findByRole("region", { name: "Checks" });
    expect(checks).toHaveTextContent("Argus review · In progress: Reviewing");
    expect(within(checks).getByRole("link", { name: "Details of Argus review" })).toHaveAttribute(
      "href",
      check.detailsUrl,
    );
    expect(
      await within(checks).findByText(/Successful: 1 new finding/, {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(checks).toHaveTextContent("The comments are posted.");
  });

  it("shows no checks where the commit has none", async () => {
    renderPull();
    await screen.findByRole("region", { name: "Conversation" });
    expect(screen.queryByRole("region", { name: "Checks" })).toBeNull();
  });

  it("lists a comment on an older commit as outdated, not under a line", async () => {
    const review = REVIEWED.reviews[0];
    if (!review) throw new Error("fixture");
    answers = [
      pullDetail({
        reviews: [{ ...review, comments: review.comments.map((c) => ({ ...c, commitId: "d".repeat(40) })) }],
      }),
    ];
    renderPull();
    const outdated = await screen.findByRole("list", { name: "Outdated comments" });
    expect(outdated).toHaveTextContent("src/config.ts:2 (outdated)");
    expect(outdated).not.toHaveTextContent("Resolved");
    expect(screen.queryByRole("article", { name: /Review comment on/ })).not.toBeInTheDocument();
  });

  it("marks an outdated comment the review engine resolved, its finding fixed by a later commit", async () => {
    const review = REVIEWED.reviews[0];
    if (!review) throw new Error("fixture");
    const older = review.comments.map((c) => ({ ...c, commitId: "d".repeat(40), resolved: true }));
    answers = [pullDetail({ reviews: [{ ...review, comments: older }] })];
    renderPull();
    const outdated = await screen.findByRole("list", { name: "Outdated comments" });
    expect(within(outdated).getByText("Resolved")).toHaveAttribute("title", "A later commit fixed it");
  });

  it("pushes a commit with a changed file's new text, starting from its text at head, then reloads", async () => {
    const user = userEvent.setup();
    answers = [
      REVIEWED,
      pullDetail({ headSha: "e".repeat(40), latestRun: { id: RUN_ID, status: "queued" } }),
    ];
    renderPull();
    const editor = await screen.findByRole("textbox", { name: "New text of src/config.ts" });
    expect(editor).toHaveValue('export const config = {\n  token: "ghp_secret",\n};\n');
    await user.clear(editor);
    await user.type(editor, "export const limit = 1;");
    await user.click(screen.getByRole("button", { name: "Push commit" }));
    expect(await screen.findByText("Queued")).toBeInTheDocument();
    expect(pushed).toEqual([{ path: "src/config.ts", content: "export const limit = 1;" }]);
  });

  it("renders the review and its comments as Markdown: bold, code, severity badges, suggestions", async () => {
    const review = REVIEWED.reviews[0];
    const comment = review?.comments[0];
    if (!review || !comment) throw new Error("fixture");
    answers = [
      pullDetail({
        reviews: [
          {
            ...review,
            body: "**Argus** reviewed `src/config.ts`: 1 new finding.\n\n- **Critical** `src/config.ts:2` `secrets/github`: a token <img src=x onerror=alert(1)>",
            comments: [
              {
                ...comment,
                body: "**Critical** · `secrets/github`\n\nA token is committed.\n\n```suggestion\n  token: process.env.TOKEN,\n```",
              },
            ],
          },
        ],
      }),
    ];
    const { container } = renderPull();
    const summary = await screen.findByRole("article", { name: "Review" });
    expect(within(summary).getByText("Argus").tagName).toBe("STRONG");
    expect(within(summary).getByText("src/config.ts").tagName).toBe("CODE");
    expect(summary).not.toHaveTextContent("**");
    expect(within(summary).getByText("Critical")).toHaveClass("bg-danger-soft");
    expect(container.querySelector("img")).toBeNull();
    expect(summary).toHaveTextContent("<img src=x onerror=alert(1)>");

    const inline = screen.getByRole("article", { name: "Review comment on src/config.ts line 2" });
    const suggestion = within(inline).getByRole("figure");
    expect(suggestion.querySelector("figcaption")).toHaveTextContent("Suggested change");
    expect(suggestion.querySelector("pre code")).toHaveTextContent("token: process.env.TOKEN,");
    expect(within(inline).getByText("Critical")).toHaveClass("rounded-full");
  });

  it("takes a comment; the bot command it names asks for a review, and the page follows the run", async () => {
    const user = userEvent.setup();
    const comment = {
      id: 2,
      kind: "comment" as const,
      author: "Ada Lovelace",
      commitId: null,
      body: "@argus review",
      createdAt: "2026-01-05T10:01:00.000Z",
      comments: [],
    };
    answers = [
      REVIEWED,
      pullDetail({ reviews: [...REVIEWED.reviews, comment], latestRun: { id: RUN_ID, status: "queued" } }),
    ];
    renderPull();
    const form = await screen.findByRole("region", { name: "Add a comment" });
    expect(within(form).getByText("@argus review").tagName).toBe("CODE");

    await user.click(within(form).getByRole("button", { name: "Comment" }));
    const field = within(form).getByRole("textbox", { name: "Comment" });
    expect(field).toHaveAccessibleDescription(expect.stringContaining("Write a comment first."));
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(commented).toEqual([]);

    await user.click(within(form).getByRole("button", { name: "Write @argus review" }));
    expect(field).toHaveValue("@argus review");
    await user.click(within(form).getByRole("button", { name: "Comment" }));
    expect(await screen.findByText("Review requested")).toBeInTheDocument();
    expect(commented).toEqual([{ body: "@argus review" }]);
    expect(await screen.findByRole("article", { name: "Comment by Ada Lovelace" })).toHaveTextContent(
      "Ada Lovelace commented",
    );
    expect(screen.getByText("Queued")).toBeInTheDocument();
    expect(field).toHaveValue("");
  });

  it("says so for a pull request the organisation does not have", async () => {
    renderPull("0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f");
    expect(await screen.findByRole("heading", { name: "Pull request not found" })).toBeInTheDocument();
  });
});
