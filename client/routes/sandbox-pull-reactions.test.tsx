import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SandboxReactions } from "../../shared/contract/sandbox.ts";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import { PULL_ID, reviewedPullDetail } from "../../tests/support/client/review-fixtures";
import SandboxPull, { loader } from "./sandbox-pull";

const fetchMock = vi.fn<typeof fetch>();
/** Bodies POSTed as reactions, and the comment's reactions the fake backend keeps. */
let reacted: unknown[];
let reactions: SandboxReactions;
let reactionStatus: number;

const PULL = reviewedPullDetail({ "+1": 2, "-1": 0, mine: [] });

beforeEach(() => {
  reacted = [];
  reactions = { "+1": 2, "-1": 0, mine: [] };
  reactionStatus = 200;
  vi.stubGlobal("fetch", fetchMock);
  fetchMock.mockImplementation(async (input, init) => {
    if (String(input) === "/api/sandbox/comments/10/reactions" && init?.method === "POST") {
      const body = JSON.parse(String(init.body)) as { content: "+1" | "-1"; pressed: boolean };
      reacted.push(body);
      if (reactionStatus !== 200) return jsonResponse({ error: "Not found" }, reactionStatus);
      const mine = reactions.mine.filter((content) => content !== body.content);
      reactions = {
        ...reactions,
        [body.content]: reactions[body.content] + (body.pressed ? 1 : -1),
        mine: body.pressed ? [...mine, body.content] : mine,
      };
      return jsonResponse({ success: true, data: reactions });
    }
    if (String(input) === `http://backend.test/api/sandbox/pulls/${PULL_ID}`) {
      return jsonResponse({ success: true, data: PULL });
    }
    throw new Error(`unexpected fetch ${String(input)}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const comment = async () => screen.findByRole("article", { name: "Review comment on src/config.ts line 2" });

describe("/sandbox/pulls/:pullId reactions", () => {
  it("toggles 👍 and 👎 on a review comment with their counts, pressed when they are mine", async () => {
    const user = userEvent.setup();
    renderPage(
      { path: "sandbox/pulls/:pullId", loader, Component: SandboxPull },
      `/sandbox/pulls/${PULL_ID}`,
    );
    const article = await comment();
    const useful = within(article).getByRole("button", { name: "Useful 2" });
    const noise = within(article).getByRole("button", { name: "Noise 0" });
    expect(useful).toHaveAttribute("aria-pressed", "false");
    expect(noise).toHaveAttribute("aria-pressed", "false");

    await user.click(noise);
    expect(await within(article).findByRole("button", { name: "Noise 1" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    // Keyboard: the 👍 toggle, then off again.
    within(article).getByRole("button", { name: "Useful 2" }).focus();
    await user.keyboard("{Enter}");
    expect(await within(article).findByRole("button", { name: "Useful 3" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await user.click(within(article).getByRole("button", { name: "Useful 3" }));
    expect(await within(article).findByRole("button", { name: "Useful 2" })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
    expect(reacted).toEqual([
      { content: "-1", pressed: true },
      { content: "+1", pressed: true },
      { content: "+1", pressed: false },
    ]);
  });

  it("keeps the counts and says so when the reaction is not saved", async () => {
    reactionStatus = 404;
    const user = userEvent.setup();
    renderPage(
      { path: "sandbox/pulls/:pullId", loader, Component: SandboxPull },
      `/sandbox/pulls/${PULL_ID}`,
    );
    const article = await comment();
    await user.click(within(article).getByRole("button", { name: "Noise 0" }));
    expect(await screen.findByText("Not found")).toBeInTheDocument();
    expect(within(article).getByRole("button", { name: "Noise 0" })).toHaveAttribute("aria-pressed", "false");
  });
});
