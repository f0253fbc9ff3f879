import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REVIEWS_PAGE_SIZE } from "../../shared/contract/paging.ts";
import type { ReviewFeedback, ReviewRunSummary } from "../../shared/contract/reviews.ts";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import { RUN_ID, runSummary } from "../../tests/support/client/review-fixtures";
import Reviews, { loader } from "./reviews";

const fetchMock = vi.fn<typeof fetch>();
let runs: ReviewRunSummary[];
/** What the backend answers GET /api/reviews/feedback, or its status when it fails. */
let feedback: ReviewFeedback | number;
let status: number;
/** What the backend says the total is; the runs of the page when undefined. */
let total: number;

/** A stand-in for the browser's EventSource: the test sends events and errors through it. */
class FakeEventSource extends EventTarget {
  static last: FakeEventSource | undefined;
  static opened = 0;
  onerror: (() => void) | null = null;
  closed = false;
  readonly url: string;
  constructor(url: string) {
    super();
    this.url = url;
    FakeEventSource.last = this;
    FakeEventSource.opened++;
  }
  close() {
    this.closed = true;
  }
  send(run: ReviewRunSummary) {
    this.dispatchEvent(new MessageEvent("run", { data: JSON.stringify(run) }));
  }
}

beforeEach(() => {
  runs = [runSummary()];
  feedback = NO_FEEDBACK;
  total = 1;
  status = 200;
  FakeEventSource.last = undefined;
  FakeEventSource.opened = 0;
  vi.stubGlobal("fetch", fetchMock);
  vi.stubGlobal("EventSource", FakeEventSource);
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input));
    if (url.origin === "http://backend.test" && url.pathname === "/api/reviews") {
      const page = Number(url.searchParams.get("page") ?? 1);
      return status === 200
        ? jsonResponse({ success: true, data: runs, page: { total, page, pageSize: REVIEWS_PAGE_SIZE } })
        : jsonResponse({ error: "boom" }, status);
    }
    if (url.origin === "http://backend.test" && url.pathname === "/api/reviews/feedback") {
      return typeof feedback === "number"
        ? jsonResponse({ error: "boom" }, feedback)
        : jsonResponse({ success: true, data: feedback });
    }
    throw new Error(`unexpected fetch ${String(input)}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const renderReviews = (url = "/reviews") => renderPage({ path: "reviews", loader, Component: Reviews }, url);
const callsTo = (pathname: string) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => new URL(url).pathname === pathname);
const reviewCalls = () => callsTo("/api/reviews");

const NO_FEEDBACK: ReviewFeedback = { findings: 0, thumbsUp: 0, thumbsDown: 0, suppressed: 0, rules: [] };

describe("/reviews", () => {
  it("lists each run with its pull request, status, trigger, duration and findings, linked to its page", async () => {
    renderReviews();
    const table = await screen.findByRole("table", { name: "Review runs, newest first" });
    const row = within(table).getAllByRole("row")[1] as HTMLElement;
    expect(within(row).getByRole("link", { name: "argus-sandbox/web-app #3" })).toHaveAttribute(
      "href",
      `/reviews/${RUN_ID}`,
    );
    expect(row).toHaveTextContent("Add the GitHub client token to the config");
    expect(row).toHaveTextContent("Succeeded");
    expect(row).toHaveTextContent("Opened");
    expect(row).toHaveTextContent("2.5 s");
    expect(row).toHaveTextContent("2 (1 posted)");
    expect(row).not.toHaveTextContent("Shadow");
  });

  it("asks for the page and filters in the URL, and links the pages around it with the filters kept", async () => {
    total = 120;
    const projectId = runSummary().projectId;
    renderReviews(`/reviews?projectId=${projectId}&status=failed&page=2`);
    const table = await screen.findByRole("table", { name: "Review runs, newest first" });
    expect(reviewCalls()).toEqual([
      `http://backend.test/api/reviews?projectId=${projectId}&status=failed&page=2&pageSize=${REVIEWS_PAGE_SIZE}`,
    ]);
    expect(screen.getByRole("combobox", { name: "Outcome" })).toHaveValue("failed");
    // Already one repository's: its rows offer no other repository filter, the form a way back.
    expect(within(table).queryByRole("link", { name: /Only this repository/ })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Show every repository" })).toHaveAttribute(
      "href",
      "/reviews?status=failed",
    );
    const pages = screen.getByRole("navigation", { name: "Review pages" });
    expect(pages).toHaveTextContent("Page 2 of 3");
    expect(within(pages).getByRole("link", { name: "Previous" })).toHaveAttribute(
      "href",
      `/reviews?projectId=${projectId}&status=failed`,
    );
    expect(within(pages).getByRole("link", { name: "Next" })).toHaveAttribute(
      "href",
      `/reviews?projectId=${projectId}&status=failed&page=3`,
    );
    expect(screen.getByText("120 reviews")).toBeInTheDocument();
  });

  it("searches by pull request number or title, the search kept in the call, the form and every link", async () => {
    total = 120;
    renderReviews("/reviews?search=%2312+&status=failed&page=2");
    const table = await screen.findByRole("table", { name: "Review runs, newest first" });
    expect(reviewCalls()).toEqual([
      `http://backend.test/api/reviews?status=failed&page=2&pageSize=${REVIEWS_PAGE_SIZE}&search=%2312`,
    ]);
    expect(screen.getByRole("searchbox", { name: "Pull request" })).toHaveValue("#12");
    const run = runSummary();
    expect(
      within(table).getByRole("link", { name: `Only this repository: ${run.repository}` }),
    ).toHaveAttribute("href", `/reviews?projectId=${run.projectId}&status=failed&search=%2312`);
    const pages = screen.getByRole("navigation", { name: "Review pages" });
    expect(within(pages).getByRole("link", { name: "Next" })).toHaveAttribute(
      "href",
      "/reviews?status=failed&search=%2312&page=3",
    );
  });

  it("applies the search and the outcome with the fields left empty out of the URL", async () => {
    const pageUrls: string[] = [];
    const projectId = runSummary().projectId;
    renderPage(
      {
        path: "reviews",
        loader: (args: Parameters<typeof loader>[0]) => {
          pageUrls.push(args.request.url);
          return loader(args);
        },
        Component: Reviews,
      },
      `/reviews?projectId=${projectId}&status=failed`,
    );
    await screen.findByRole("table", { name: "Review runs, newest first" });
    await userEvent.type(screen.getByRole("searchbox", { name: "Pull request" }), "  #3 ");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Outcome" }), "");
    await userEvent.click(screen.getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(pageUrls).toHaveLength(2));
    expect(new URL(pageUrls[1] as string).search).toBe(`?projectId=${projectId}&search=%233`);
    expect(reviewCalls()[1]).toBe(
      `http://backend.test/api/reviews?projectId=${projectId}&pageSize=${REVIEWS_PAGE_SIZE}&search=%233`,
    );
  });

  it("keeps the search when the repository filter is taken off", async () => {
    renderReviews(`/reviews?projectId=${runSummary().projectId}&search=token`);
    await screen.findByRole("table", { name: "Review runs, newest first" });
    expect(screen.getByRole("link", { name: "Show every repository" })).toHaveAttribute(
      "href",
      "/reviews?search=token",
    );
  });

  it("offers each run's repository as a filter, and ignores a malformed filter", async () => {
    renderReviews("/reviews?projectId=web&status=bogus&page=-1");
    const table = await screen.findByRole("table", { name: "Review runs, newest first" });
    expect(reviewCalls()).toEqual([`http://backend.test/api/reviews?pageSize=${REVIEWS_PAGE_SIZE}`]);
    const run = runSummary();
    expect(
      within(table).getByRole("link", { name: `Only this repository: ${run.repository}` }),
    ).toHaveAttribute("href", `/reviews?projectId=${run.projectId}`);
    expect(screen.queryByRole("navigation", { name: "Review pages" })).not.toBeInTheDocument();
  });

  it("says when no run matches the filters, with a way back to every review", async () => {
    runs = [];
    total = 0;
    for (const url of ["/reviews?status=skipped", "/reviews?search=nothing+like+it"]) {
      const { unmount } = renderReviews(url);
      expect(
        await screen.findByRole("heading", { name: "No reviews match these filters" }),
      ).toBeInTheDocument();
      expect(screen.getByRole("link", { name: "Show every review" })).toHaveAttribute("href", "/reviews");
      unmount();
    }
  });

  it("marks a run reviewed in shadow mode", async () => {
    runs = [runSummary({ shadow: true, findingsPosted: 0 })];
    renderReviews();
    const table = await screen.findByRole("table", { name: "Review runs, newest first" });
    const row = within(table).getAllByRole("row")[1] as HTMLElement;
    expect(row).toHaveTextContent("SucceededShadow");
    expect(row).toHaveTextContent("2 (0 posted)");
  });

  it("merges runs from the event stream: a changed run in place, a new one on top", async () => {
    runs = [runSummary({ status: "running", durationMs: null, findingsTotal: null, findingsPosted: null })];
    renderReviews();
    const table = await screen.findByRole("table");
    expect(table).toHaveTextContent("Running");
    // The stream opens in a passive effect, which can run after the table is on screen.
    await waitFor(() => expect(FakeEventSource.last?.url).toBe("/api/reviews/events"));
    act(() => FakeEventSource.last?.send(runSummary({ status: "failed", reason: "boom" })));
    expect(await within(table).findByText("Failed")).toBeInTheDocument();
    act(() => FakeEventSource.last?.send(runSummary({ id: "other-run", pullRequest: 9, status: "queued" })));
    const rows = await within(table).findAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent("#9");
    expect(screen.getByRole("status")).toHaveTextContent("Updates as reviews run.");
  });

  it("puts a new run on top only on the first page and when the filters take it, still updating the runs shown", async () => {
    total = 120;
    renderReviews("/reviews?page=2");
    const table = await screen.findByRole("table");
    await waitFor(() => expect(FakeEventSource.last?.url).toBe("/api/reviews/events"));
    act(() => FakeEventSource.last?.send(runSummary({ id: "other-run", pullRequest: 9, status: "queued" })));
    act(() => FakeEventSource.last?.send(runSummary({ status: "failed", reason: "boom" })));
    expect(await within(table).findByText("Failed")).toBeInTheDocument();
    expect(within(table).getAllByRole("row")).toHaveLength(2);
    expect(table).not.toHaveTextContent("#9");
  });

  it("leaves out a new run the outcome filter does not take", async () => {
    renderReviews("/reviews?status=succeeded");
    const table = await screen.findByRole("table");
    await waitFor(() => expect(FakeEventSource.last?.url).toBe("/api/reviews/events"));
    act(() => FakeEventSource.last?.send(runSummary({ id: "other-run", pullRequest: 9, status: "queued" })));
    act(() =>
      FakeEventSource.last?.send(runSummary({ id: "third-run", pullRequest: 7, status: "succeeded" })),
    );
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(3));
    expect(table).toHaveTextContent("#7");
    expect(table).not.toHaveTextContent("#9");
  });

  it("leaves out a new run the search does not take", async () => {
    renderReviews("/reviews?search=cart");
    const table = await screen.findByRole("table");
    await waitFor(() => expect(FakeEventSource.last?.url).toBe("/api/reviews/events"));
    act(() =>
      FakeEventSource.last?.send(
        runSummary({ id: "other-run", pullRequest: 9, pullRequestTitle: "Refunds by card" }),
      ),
    );
    act(() =>
      FakeEventSource.last?.send(
        runSummary({ id: "third-run", pullRequest: 7, pullRequestTitle: "Fix the Cart total" }),
      ),
    );
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(3));
    expect(table).toHaveTextContent("#7");
    expect(table).not.toHaveTextContent("#9");
  });

  it("falls back to reloading when the stream fails or is refused, without opening it again", async () => {
    renderReviews();
    await screen.findByRole("table");
    const source = await waitFor(() => {
      expect(FakeEventSource.last).toBeDefined();
      return FakeEventSource.last;
    });
    // A refused stream (429 when the session holds too many) reaches EventSource as an error too.
    act(() => source?.onerror?.());
    expect(source?.closed).toBe(true);
    expect(await screen.findByText(/Live updates are unavailable/)).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(FakeEventSource.opened).toBe(1);
  });

  it("says there are no reviews yet and where to start one", async () => {
    runs = [];
    renderReviews();
    expect(await screen.findByRole("heading", { name: "No reviews yet" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to your repositories" })).toHaveAttribute("href", "/home");
  });

  it("shows an error with Retry when the runs cannot be loaded", async () => {
    status = 500;
    renderReviews();
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not load the reviews");
    expect(screen.getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });
});

describe("/reviews: feedback on findings", () => {
  const summary = () => screen.findByRole("region", { name: "Feedback on findings" });

  it("sums the reactions and lists the rules most marked as noise first, for every repository", async () => {
    feedback = {
      findings: 5,
      thumbsUp: 5,
      thumbsDown: 4,
      suppressed: 3,
      rules: [
        { ruleId: "markers/debugger", source: "builtin", findings: 2, thumbsUp: 0, thumbsDown: 3 },
        { ruleId: "ai/review", source: "ai", findings: 1, thumbsUp: 1, thumbsDown: 1 },
      ],
    };
    renderReviews();
    const region = await summary();
    expect(callsTo("/api/reviews/feedback")).toEqual(["http://backend.test/api/reviews/feedback"]);
    expect(region).toHaveTextContent("In every repository");
    const facts = Object.fromEntries(
      within(region)
        .getAllByRole("term")
        .map((term) => [term.textContent?.trim(), term.nextElementSibling?.textContent]),
    );
    expect(facts).toEqual({ Useful: "5", Noise: "4", "Found useful": "56 %", "Not posted again": "3" });
    const table = within(region).getByRole("table", { name: "By rule, most marked as noise first" });
    expect(
      within(table)
        .getAllByRole("row")
        .map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent)),
    ).toEqual([
      ["Rule", "Reviewer", "Findings", "Useful", "Noise"],
      ["markers/debugger", "Built-in", "2", "0", "3"],
      ["ai/review", "AI model", "1", "1", "1"],
    ]);
    expect(within(region).getByRole("link", { name: "Built In Rules settings" })).toHaveAttribute(
      "href",
      "/settings?tab=built_in_rules",
    );
  });

  it("narrows to the repository the page is filtered to, and links to its settings", async () => {
    feedback = { findings: 1, thumbsUp: 1, thumbsDown: 0, suppressed: 0, rules: [] };
    const { projectId } = runSummary();
    renderReviews(`/reviews?projectId=${projectId}`);
    const region = await summary();
    expect(callsTo("/api/reviews/feedback")).toEqual([
      `http://backend.test/api/reviews/feedback?projectId=${projectId}`,
    ]);
    expect(region).toHaveTextContent(`In ${runSummary().repository}`);
    expect(region).toHaveTextContent("Found useful100 %");
    expect(within(region).queryByRole("table")).not.toBeInTheDocument();
    expect(within(region).getByRole("link", { name: "Built In Rules settings" })).toHaveAttribute(
      "href",
      `/settings?repositoryId=${projectId}&tab=built_in_rules`,
    );
  });

  it("says how to give feedback when there is none yet", async () => {
    renderReviews();
    expect(await screen.findByText(/No reactions yet\./)).toHaveTextContent(
      "Mark a review comment on the pull request as useful () or noise () to tell Argus whether it helped",
    );
    expect(screen.queryByRole("region", { name: "Feedback on findings" })).not.toBeInTheDocument();
  });

  it("stays quiet before the first review", async () => {
    runs = [];
    total = 0;
    renderReviews();
    await screen.findByRole("heading", { name: "No reviews yet" });
    expect(screen.queryByText(/No reactions yet/)).not.toBeInTheDocument();
  });

  it("says when the feedback could not be loaded, and still lists the runs", async () => {
    feedback = 500;
    renderReviews();
    expect(await screen.findByText("The feedback on findings could not be loaded.")).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Review runs, newest first" })).toBeInTheDocument();
  });
});
