import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import { PROJECT_ID, PULL_ID, pullsData } from "../../tests/support/client/review-fixtures";
import SandboxPulls, { loader } from "./sandbox-pulls";

const fetchMock = vi.fn<typeof fetch>();
/** Bodies POSTed to open a pull request. */
let opened: unknown[];

beforeEach(() => {
  opened = [];
  vi.stubGlobal("fetch", fetchMock);
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === `http://backend.test/api/sandbox/repositories/${PROJECT_ID}/pulls`) {
      return jsonResponse({ success: true, data: pullsData() });
    }
    if (url === `/api/sandbox/repositories/${PROJECT_ID}/pulls` && init?.method === "POST") {
      opened.push(JSON.parse(String(init.body)));
      return jsonResponse({ success: true, data: { id: PULL_ID, number: 1, headSha: "c".repeat(40) } }, 201);
    }
    if (url.startsWith("http://backend.test/api/sandbox/repositories/"))
      return jsonResponse({ error: "Not found" }, 404);
    throw new Error(`unexpected fetch ${url}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

function WhereProbe() {
  return <p>Went to {useLocation().pathname}</p>;
}

const renderPulls = (projectId = PROJECT_ID) =>
  renderPage(
    { path: "sandbox/repositories/:projectId/pulls", loader, Component: SandboxPulls },
    `/sandbox/repositories/${projectId}/pulls`,
    { extra: [{ path: "sandbox/pulls/:pullId", Component: WhereProbe }] },
  );

describe("/sandbox/repositories/:projectId/pulls", () => {
  it("says it is the sandbox and offers the templates; one opens a pull request and goes to it", async () => {
    renderPulls();
    expect(await screen.findByRole("heading", { name: "argus-sandbox/web-app" })).toBeInTheDocument();
    expect(screen.getAllByText("Sandbox")[0]).toBeVisible();
    const templates = within(screen.getByRole("region", { name: "Open a pull request from a template" }));
    expect(templates.getAllByRole("article")).toHaveLength(2);
    await userEvent.setup().click(
      templates.getByRole("button", {
        name: "Open pull request: Add the GitHub client token to the config",
      }),
    );
    expect(await screen.findByText(`Went to /sandbox/pulls/${PULL_ID}`)).toBeInTheDocument();
    expect(opened).toEqual([{ template: "leaked-key" }]);
  });

  it("lists the repository's pull requests first, above the ways to open one", async () => {
    const pull = {
      id: PULL_ID,
      number: 3,
      title: "Count the units in the cart",
      author: "Ada",
      headSha: "c".repeat(40),
      createdAt: "2026-11-27T09:34:00.000Z",
      updatedAt: "2026-11-27T09:34:00.000Z",
    };
    fetchMock.mockImplementation(async () =>
      jsonResponse({ success: true, data: pullsData({ pulls: [pull] }) }),
    );
    renderPulls();
    const pulls = await screen.findByRole("region", { name: "Pull requests" });
    expect(within(pulls).getByRole("link", { name: "Count the units in the cart" })).toHaveAttribute(
      "href",
      `/sandbox/pulls/${PULL_ID}`,
    );
    const templates = screen.getByRole("region", { name: "Open a pull request from a template" });
    expect(pulls.compareDocumentPosition(templates) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("opens a pull request from an edited file: the editor starts from the picked file", async () => {
    const user = userEvent.setup();
    renderPulls();
    const editor = await screen.findByRole("textbox", { name: "New text of README.md" });
    expect(editor).toHaveValue("# Sample\n");
    await user.selectOptions(screen.getByRole("combobox", { name: "File" }), "src/cart.ts");
    const cart = screen.getByRole("textbox", { name: "New text of src/cart.ts" });
    expect(cart).toHaveValue("export const total = 0;\n");

    await user.click(screen.getByRole("button", { name: "Open pull request with this change" }));
    expect(await screen.findByText("Give the pull request a title.")).toBeInTheDocument();
    expect(opened).toEqual([]);

    await user.type(screen.getByRole("textbox", { name: "Title" }), "Start at one");
    await user.clear(cart);
    await user.type(cart, "export const total = 1;");
    await user.click(screen.getByRole("button", { name: "Open pull request with this change" }));
    expect(await screen.findByText(`Went to /sandbox/pulls/${PULL_ID}`)).toBeInTheDocument();
    expect(opened).toEqual([
      { title: "Start at one", path: "src/cart.ts", content: "export const total = 1;" },
    ]);
  });

  it("says so for a repository that is not a sandbox one", async () => {
    renderPulls("0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f");
    expect(await screen.findByRole("heading", { name: "Not a sandbox repository" })).toBeInTheDocument();
  });
});
