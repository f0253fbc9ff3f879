import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { siGithub } from "simple-icons";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Integration } from "../../shared/contract/code-hosts.ts";
import {
  GITHUB_INTEGRATION,
  gateway,
  integration,
  jsonResponse,
  SANDBOX_GITHUB_INTEGRATION,
} from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import Integrations, { loader } from "./integrations";

const fetchMock = vi.fn<typeof fetch>();

function SettingsProbe() {
  return <p>Settings page</p>;
}
function SetupProbe() {
  return <p>Setup page</p>;
}

function renderIntegrations(value = gateway()) {
  return renderPage({ path: "integrations", loader, Component: Integrations }, "/integrations", {
    value,
    extra: [
      { path: "settings", Component: SettingsProbe },
      { path: "integrations/:integrationName", Component: SetupProbe },
    ],
  });
}

/** The backend answers the list calls in turn (the last one again); the gateway answers logout. */
function backendAnswers(...responses: (() => Response | Promise<Response>)[]) {
  fetchMock.mockImplementation(async (input) => {
    if (String(input) === "/auth/logout") return new Response(null, { status: 204 });
    const next = responses.length > 1 ? responses.shift() : responses[0];
    if (!next) throw new Error(`unexpected fetch ${String(input)}`);
    return next();
  });
}

const listBody = (data: Integration[]) => jsonResponse({ success: true, data });
const listCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith("/api/integrations"));

beforeEach(() => vi.stubGlobal("fetch", fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe("/integrations", () => {
  it("lists each integration with its name, sub title, description and connection, from the backend", async () => {
    backendAnswers(() => listBody([{ ...GITHUB_INTEGRATION, isActive: true }, integration()]));
    renderIntegrations();

    const github = await screen.findByRole("article", { name: "GitHub" });
    expect(within(github).getByText("Install the GitHub App on your account or organisation.")).toBeVisible();
    expect(within(github).getByText("Code host")).toBeVisible();
    expect(within(github).getByText("Connected")).toBeVisible();
    expect(within(github).getByRole("link", { name: "Settings GitHub" })).toHaveAttribute(
      "href",
      "/settings?integrationName=github",
    );

    expect(within(github).queryByText("Sandbox")).not.toBeInTheDocument();

    const azure = screen.getByRole("article", { name: "Azure DevOps" });
    expect(within(azure).getByText("Not Connected")).toBeVisible();
    expect(within(azure).getByRole("link", { name: "Connect Azure DevOps" })).toHaveAttribute(
      "href",
      "/integrations/azure-devops",
    );

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe("http://backend.test/api/integrations");
    expect(new Headers(init?.headers).get("authorization")).toBe("Bearer secret-token");
  });

  it("shows each code host's logo, hidden from assistive technology beside its name, not a letter", async () => {
    backendAnswers(() =>
      listBody([GITHUB_INTEGRATION, integration(), integration({ name: "gitea", display_name: "Gitea" })]),
    );
    renderIntegrations();
    const github = await screen.findByRole("article", { name: "GitHub" });
    const githubMark = github.querySelector("svg");
    expect(githubMark?.querySelector("path")?.getAttribute("d")).toBe(siGithub.path);
    expect(githubMark?.closest("[aria-hidden='true']")).not.toBeNull();
    expect(within(github).queryByText("G")).not.toBeInTheDocument();

    const azure = screen.getByRole("article", { name: "Azure DevOps" });
    const azureMark = azure.querySelector("svg");
    const gradient = azureMark?.querySelector("linearGradient");
    expect(gradient?.querySelector("stop")?.getAttribute("stop-color")).toBe("#0078d4");
    expect(azureMark?.querySelector("path")?.getAttribute("fill")).toBe(`url(#${gradient?.id})`);
    expect(within(azure).queryByText("A")).not.toBeInTheDocument();

    // A host without a mark keeps its letter.
    expect(within(screen.getByRole("article", { name: "Gitea" })).getByText("G")).toBeInTheDocument();
  });

  it("marks GitHub with a Sandbox badge while the code host is the sandbox, connected or not", async () => {
    for (const isActive of [false, true]) {
      backendAnswers(() => listBody([{ ...SANDBOX_GITHUB_INTEGRATION, isActive }, integration()]));
      const { unmount } = renderIntegrations();
      const github = await screen.findByRole("article", { name: "GitHub" });
      expect(within(github).getByText("Sandbox")).toBeVisible();
      expect(within(screen.getByRole("article", { name: "Azure DevOps" })).queryByText("Sandbox")).toBeNull();
      unmount();
    }
  });

  it("goes to the setup page of an integration that is not connected", async () => {
    backendAnswers(() => listBody([{ ...GITHUB_INTEGRATION, isActive: true }, integration()]));
    renderIntegrations();
    await userEvent.click(await screen.findByRole("link", { name: "Connect Azure DevOps" }));
    expect(await screen.findByText("Setup page")).toBeInTheDocument();
  });

  it("opens the settings of an active integration", async () => {
    backendAnswers(() => listBody([{ ...GITHUB_INTEGRATION, isActive: true }]));
    renderIntegrations();
    await userEvent.click(await screen.findByRole("link", { name: "Settings GitHub" }));
    expect(await screen.findByText("Settings page")).toBeInTheDocument();
  });

  it("shows skeletons while the list is on its way", async () => {
    let answer: (response: Response) => void = () => {};
    backendAnswers(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderIntegrations();
    expect(await screen.findByText("Loading integrations…")).toBeInTheDocument();
    answer(listBody([integration()]));
    expect(await screen.findByRole("article", { name: "Azure DevOps" })).toBeInTheDocument();
    expect(screen.queryByText("Loading integrations…")).not.toBeInTheDocument();
  });

  it("shows the empty state", async () => {
    backendAnswers(() => listBody([]));
    renderIntegrations();
    expect(await screen.findByRole("heading", { name: "No integrations found" })).toBeInTheDocument();
  });

  it("shows the error, and Retry loads the list again", async () => {
    backendAnswers(
      () => jsonResponse({ error: "boom" }, 500),
      () => listBody([integration()]),
    );
    renderIntegrations();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load integration data");
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("article", { name: "Azure DevOps" })).toBeInTheDocument();
    expect(screen.queryByText("Failed to load integration data")).not.toBeInTheDocument();
    expect(listCalls()).toHaveLength(2);
  });

  it("ends the session and goes to /login when the backend answers 401", async () => {
    backendAnswers(() => jsonResponse({ error: "Unauthorized" }, 401));
    renderIntegrations();
    expect(await screen.findByText(/Login page/)).toHaveTextContent("Login page ?redirectTo=%2Fintegrations");
  });

  it("sends a guest to /login without calling the backend", async () => {
    renderIntegrations(gateway({ session: null }));
    await waitFor(() =>
      expect(screen.getByText(/Login page/)).toHaveTextContent("redirectTo=%2Fintegrations"),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
