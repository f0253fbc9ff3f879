import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReviewRunDetail, RunFinding } from "../../shared/contract/reviews.ts";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import { RUN_ID, runDetail, runSummary } from "../../tests/support/client/review-fixtures";
import ReviewRun, { loader } from "./review-run";

const fetchMock = vi.fn<typeof fetch>();
const NEW_RUN = "9e8d7c6b-5a49-4382-9176-5a4b3c2d1e0f";
let retryStatus: number;
/** What the run's answer changes from runDetail()'s. */
let detailChanges: Partial<ReviewRunDetail>;

beforeEach(() => {
  retryStatus = 200;
  detailChanges = {};
  vi.stubGlobal("fetch", fetchMock);
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === `http://backend.test/api/reviews/${RUN_ID}`)
      return jsonResponse({ success: true, data: runDetail(detailChanges) });
    if (url === `http://backend.test/api/reviews/${NEW_RUN}`) {
      return jsonResponse({
        success: true,
        data: runDetail({
          id: NEW_RUN,
          status: "queued",
          trigger: "command",
          command: "review",
          decisions: [],
          findings: [],
        }),
      });
    }
    if (url === `/api/reviews/${RUN_ID}/retry` && init?.method === "POST") {
      return retryStatus === 200
        ? jsonResponse({ success: true, data: runSummary({ id: NEW_RUN, status: "queued" }) })
        : jsonResponse(
            { error: "Conflict", message: "A review of this pull request is already queued." },
            retryStatus,
          );
    }
    if (url.startsWith("http://backend.test/api/reviews/")) return jsonResponse({ error: "Not found" }, 404);
    throw new Error(`unexpected fetch ${url}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const renderRun = (id = RUN_ID) =>
  renderPage({ path: "reviews/:runId", loader, Component: ReviewRun }, `/reviews/${id}`);

describe("/reviews/:runId", () => {
  it("shows the run, its decision log in order and its findings with their anchors and delivery", async () => {
    renderRun();
    expect(await screen.findByRole("heading", { name: "argus-sandbox/web-app #3" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open the pull request" })).toHaveAttribute(
      "href",
      expect.stringMatching(/^\/sandbox\/pulls\//),
    );
    const log = screen.getByRole("region", { name: "Decision log" });
    expect(within(log).getAllByRole("listitem")).toHaveLength(4);

    const findings = within(screen.getByRole("region", { name: "Findings" })).getAllByRole("listitem");
    expect(findings[0]).toHaveTextContent("Critical");
    expect(findings[0]).toHaveTextContent("src/config.ts:17");
    expect(findings[0]).toHaveTextContent("secrets/github");
    expect(findings[0]).toHaveTextContent("Posted inline");
    expect(findings[0]).toHaveTextContent('githubToken: env.GITHUB_TOKEN ?? "ghp_****"');
    expect(findings[1]).toHaveTextContent("The whole pull request");
    expect(findings[1]).toHaveTextContent("In the summary");
  });

  it("links the head commit to its page on the code host, where it has one", async () => {
    const sha = "4f2a9c1e7b3d5a6f8e0c2b4d6a8f0e1c3b5d7a9f";
    detailChanges = { headSha: sha, headCommitUrl: `https://github.com/acme/web/commit/${sha}` };
    const { unmount } = renderRun();
    expect(await screen.findByRole("link", { name: "4f2a9c1e7b3d" })).toHaveAttribute(
      "href",
      `https://github.com/acme/web/commit/${sha}`,
    );
    unmount();
    // The sandbox's commits have no page: the short SHA alone.
    detailChanges = { headSha: sha, headCommitUrl: null };
    renderRun();
    expect(await screen.findByText("4f2a9c1e7b3d")).not.toHaveAttribute("href");
    expect(screen.queryByRole("link", { name: "4f2a9c1e7b3d" })).not.toBeInTheDocument();
  });

  it("shows the decision log as a timeline: steps and outcomes in words, durations, details folded away", async () => {
    const user = userEvent.setup();
    renderRun();
    const log = await screen.findByRole("region", { name: "Decision log" });
    const [event, draft, team, post] = within(log).getAllByRole("listitem") as HTMLElement[];
    expect(event).toHaveTextContent(/^Event receivedQueued/);
    // A step is logged when it is done: it took the time since the step before; the first, none.
    expect(event).not.toHaveTextContent("Took");
    expect(draft).toHaveTextContent(/^Check: draftPassed/);
    expect(draft).toHaveTextContent("Took 1.0 s");
    expect(team).toHaveTextContent("Took 250 ms");
    expect(team).toHaveTextContent(/^Team rulesNone found/);
    expect(team).toHaveTextContent("rules.team");
    expect(post).toHaveTextContent(/^PostingPosted/);
    expect(post).toHaveTextContent("Took 1.8 s");
    // A step without details has no disclosure.
    expect(within(draft as HTMLElement).queryByText("Details")).toBeNull();

    const summary = within(team as HTMLElement).getByText("Details");
    const details = summary.closest("details");
    expect(details).not.toHaveAttribute("open");
    expect(within(team as HTMLElement).getByText("*.yml, *.yaml")).not.toBeVisible();
    await user.click(summary);
    expect(details).toHaveAttribute("open");
    expect(within(team as HTMLElement).getByText("*.yml, *.yaml")).toBeVisible();
    expect(within(team as HTMLElement).getByText(".argus/rules")).toBeVisible();
  });

  it("shows each finding's rule id, kind of flaw, CWE id (linked to MITRE) and fix hint, where it has them", async () => {
    renderRun();
    const findings = within(await screen.findByRole("region", { name: "Findings" })).getAllByRole("listitem");
    const [secret, size] = findings;
    if (!secret || !size) throw new Error("two findings expected");
    expect(secret).toHaveTextContent("secrets/github");
    expect(secret).toHaveTextContent("Security");
    expect(within(secret).getByRole("link", { name: /^CWE-798/ })).toHaveAttribute(
      "href",
      "https://cwe.mitre.org/data/definitions/798.html",
    );
    expect(secret).toHaveTextContent(
      "Fix: Revoke it now, then load it from the environment or a secret store.",
    );
    // A finding without a CWE id or a fix shows neither.
    expect(size).toHaveTextContent("Hygiene");
    expect(within(size).queryByRole("link", { name: /CWE/ })).toBeNull();
    expect(size).not.toHaveTextContent("Fix:");
  });

  it("marks a shadow run and says where each finding would have gone", async () => {
    const [inline, summary] = runDetail().findings as [RunFinding, RunFinding];
    const shadow = runDetail({
      shadow: true,
      findingsPosted: 0,
      findings: [
        { ...inline, delivery: "shadow", shadowDelivery: "inline" },
        { ...summary, delivery: "shadow", shadowDelivery: "summary" },
      ],
    });
    fetchMock.mockImplementation(async () => jsonResponse({ success: true, data: shadow }));
    renderRun();
    expect(await screen.findByText("Shadow")).toBeInTheDocument();
    const listed = within(screen.getByRole("region", { name: "Findings" })).getAllByRole("listitem");
    expect(listed[0]).toHaveTextContent("Shadow: would have been posted inline");
    expect(listed[1]).toHaveTextContent("Shadow: would have been in the summary");
  });

  it("says why a finding was not posted, and only 'Not posted' for a run recorded before reasons were kept", async () => {
    const [inline] = runDetail().findings as [RunFinding];
    const reasons = ["below_threshold", "over_limit", "repeat", null] as const;
    const detail = runDetail({
      findingsPosted: 0,
      findings: reasons.map((notPostedReason, index) => ({
        ...inline,
        finding: { ...inline.finding, fingerprint: String(index).repeat(64) },
        delivery: "not_posted" as const,
        notPostedReason,
      })),
    });
    fetchMock.mockImplementation(async () => jsonResponse({ success: true, data: detail }));
    renderRun();
    const findings = await screen.findByRole("region", { name: "Findings" });
    const listed = within(findings).getAllByRole("listitem");
    expect(listed[0]).toHaveTextContent("Not posted: below the lowest severity reported");
    expect(listed[1]).toHaveTextContent("Not posted: over the most findings per review");
    expect(listed[2]).toHaveTextContent("Not posted: more of the same rule in this file");
    expect(listed[3]).toHaveTextContent(/· Not posted(?!:)/);
  });

  it("links a suppressed finding to the repository's findings marked as noise", async () => {
    const [inline] = runDetail().findings as [RunFinding];
    const detail = runDetail({ findingsPosted: 0, findings: [{ ...inline, delivery: "suppressed" }] });
    fetchMock.mockImplementation(async () => jsonResponse({ success: true, data: detail }));
    renderRun();
    const findings = await screen.findByRole("region", { name: "Findings" });
    expect(findings).toHaveTextContent("Suppressed (marked as noise in this repository)");
    expect(
      within(findings).getByRole("link", {
        name: "Manage the findings marked as noise in this repository's settings",
      }),
    ).toHaveAttribute("href", `/settings?repositoryId=${detail.projectId}&tab=built_in_rules`);
  });

  it("says how many of the run's findings it lists when the run kept only some of them", async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({ success: true, data: runDetail({ findingsTotal: 1991, findingsPosted: 1 }) }),
    );
    renderRun();
    const findings = await screen.findByRole("region", { name: "Findings" });
    expect(findings).toHaveTextContent(
      "Showing 2 of 1,991 findings: every one posted, then the most severe. A review keeps no more.",
    );
    expect(screen.getByText("1,991 (1 posted)")).toBeInTheDocument();
  });

  it("lists every finding without a note when the run kept them all", async () => {
    renderRun();
    const findings = await screen.findByRole("region", { name: "Findings" });
    expect(within(findings).getAllByRole("listitem")).toHaveLength(2);
    expect(findings).not.toHaveTextContent("Showing");
  });

  it("Review again starts a new run and goes to its page", async () => {
    renderRun();
    await userEvent.setup().click(await screen.findByRole("button", { name: "Review again" }));
    expect(await screen.findByText("Command: review")).toBeInTheDocument();
    expect(screen.getByText("Nothing yet: the review has not started.")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/reviews/${RUN_ID}/retry`,
      expect.objectContaining({ method: "POST" }),
    );
  });

  it("says why when the review cannot start again, and stays", async () => {
    retryStatus = 409;
    renderRun();
    await userEvent.setup().click(await screen.findByRole("button", { name: "Review again" }));
    expect(await screen.findByText("A review of this pull request is already queued.")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "argus-sandbox/web-app #3" })).toBeInTheDocument();
  });

  it("says so for a run the organisation does not have", async () => {
    renderRun("0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f");
    expect(await screen.findByRole("heading", { name: "Review not found" })).toBeInTheDocument();
  });
});
