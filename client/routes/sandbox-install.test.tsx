import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Integration } from "../../shared/contract/code-hosts.ts";
import { SANDBOX_REPOSITORIES } from "../../shared/sandbox-samples.ts";
import {
  contextWith,
  GITHUB_INTEGRATION,
  gateway,
  jsonResponse,
  SANDBOX_CODE,
  SANDBOX_GITHUB_INTEGRATION,
  SANDBOX_INSTALLATION_ID,
  thrownStatusOf,
} from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import SandboxInstall, { loader } from "./sandbox-install";

const fetchMock = vi.fn<typeof fetch>();
/** What GET /api/integrations/github answers. */
let github: Integration;

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  github = SANDBOX_GITHUB_INTEGRATION;
  fetchMock.mockImplementation(async (input) => {
    if (String(input) === "http://backend.test/api/integrations/github") {
      return jsonResponse({ success: true, data: github });
    }
    throw new Error(`unexpected fetch ${String(input)}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const PAGE_URL = `/sandbox/install?installation_id=${SANDBOX_INSTALLATION_ID}&code=${SANDBOX_CODE}`;

async function load(url: string) {
  const request = new Request(`http://gateway.test${url}`);
  return loader({ context: contextWith(gateway()), request, params: {}, url: new URL(request.url) } as never);
}

describe("/sandbox/install loader", () => {
  it("offers the query's installation while the backend's code host is the sandbox", async () => {
    await expect(load(PAGE_URL)).resolves.toEqual({
      installationId: SANDBOX_INSTALLATION_ID,
      code: SANDBOX_CODE,
    });
  });

  it("is a 404 when the code host is a GitHub App", async () => {
    github = GITHUB_INTEGRATION;
    expect(await thrownStatusOf(load(PAGE_URL))).toBe(404);
  });

  it("is a 404 without a sandbox installation id or its code", async () => {
    for (const url of [
      "/sandbox/install",
      `/sandbox/install?installation_id=4242&code=${SANDBOX_CODE}`,
      `/sandbox/install?installation_id=${SANDBOX_INSTALLATION_ID}`,
    ]) {
      expect(await thrownStatusOf(load(url)), url).toBe(404);
    }
  });
});

/** Shows where a button led, path and query. */
function WhereProbe() {
  const location = useLocation();
  return <p>Went to {`${location.pathname}${location.search}`}</p>;
}

function renderSandboxInstall() {
  renderPage({ path: "sandbox/install", loader, Component: SandboxInstall }, PAGE_URL, {
    extra: [
      { path: "installation", Component: WhereProbe },
      { path: "integrations/:integrationName", Component: WhereProbe },
    ],
  });
}

describe("/sandbox/install page", () => {
  it("says it is the sandbox code host, with the installation id and the repositories it will grant", async () => {
    renderSandboxInstall();
    expect(await screen.findByRole("heading", { name: "Sandbox code host" })).toBeInTheDocument();
    expect(screen.getByText(/stands in for GitHub's "Install the app" page/)).toBeVisible();
    expect(screen.getByText(SANDBOX_INSTALLATION_ID)).toBeVisible();
    const list = screen.getByRole("list", { name: "Repositories it will grant" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(SANDBOX_REPOSITORIES.length);
    for (const repository of SANDBOX_REPOSITORIES) {
      expect(within(list).getByText(repository.full_name)).toBeVisible();
    }
  });

  it("Install goes to /installation exactly as GitHub sends the browser back, with the link's code", async () => {
    renderSandboxInstall();
    await userEvent.setup().click(await screen.findByRole("link", { name: "Install" }));
    expect(
      await screen.findByText(
        `Went to /installation?setup_action=install&installation_id=${SANDBOX_INSTALLATION_ID}&code=${SANDBOX_CODE}`,
      ),
    ).toBeInTheDocument();
  });

  it("Cancel goes back to the GitHub integration", async () => {
    renderSandboxInstall();
    await userEvent.setup().click(await screen.findByRole("link", { name: "Cancel" }));
    expect(await screen.findByText("Went to /integrations/github")).toBeInTheDocument();
  });
});
