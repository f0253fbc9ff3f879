import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Integration } from "../../shared/contract/code-hosts.ts";
import {
  GITHUB_INTEGRATION,
  integration,
  jsonResponse,
  SANDBOX_GITHUB_INTEGRATION,
} from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import IntegrationPage, { loader } from "./integration";

const fetchMock = vi.fn<typeof fetch>();
/** What GET /api/integrations/{name} answers: the integration, or a status with an error body. */
let stored: Integration | number;
/** What POST /api/integrations/{name}/setup answers; a success activates the stored integration. */
let setupAnswer: () => Response | Promise<Response>;
/** GET answers once this settles (a test holds it to see the loading state). */
let gate: Promise<unknown>;

function renderIntegration(name = "azure-devops") {
  renderPage(
    { path: "integrations/:integrationName", loader, Component: IntegrationPage },
    `/integrations/${name}`,
  );
}

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  gate = Promise.resolve();
  setupAnswer = () => jsonResponse({ success: true, message: "Integration saved" });
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === "/auth/logout") return new Response(null, { status: 204 });
    if (url === "/api/integrations/azure-devops/setup" && init?.method === "POST") {
      const response = await setupAnswer();
      if (response.ok && typeof stored === "object") stored = { ...stored, isActive: true };
      return response;
    }
    if (url.startsWith("http://backend.test/api/integrations/")) {
      await gate;
      return typeof stored === "number"
        ? jsonResponse({ error: "nope" }, stored)
        : jsonResponse({ success: true, data: stored });
    }
    throw new Error(`unexpected fetch ${url}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const setupCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith("/setup"));

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText("Organization URL"), "https://dev.azure.com/babbage");
  await user.type(screen.getByLabelText("Personal Access Token"), " pat-123 ");
}

describe("/integrations/{name}", () => {
  it("shows the back link, name, sub title and description, and a form with one input per field", async () => {
    stored = integration();
    renderIntegration();
    expect(await screen.findByRole("heading", { name: "Azure DevOps" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to integrations" })).toHaveAttribute(
      "href",
      "/integrations",
    );
    expect(screen.getByText("Code host")).toBeVisible();
    expect(screen.getByText("Connect an Azure DevOps project with a personal access token.")).toBeVisible();

    const url = screen.getByLabelText("Organization URL");
    expect(url).toHaveAttribute("type", "url");
    expect(url).toHaveAttribute("placeholder", "https://dev.azure.com/your-organization");
    expect(url).toBeRequired();
    expect(screen.getByLabelText("Personal Access Token")).toHaveAttribute("type", "password");
    expect(screen.getByRole("button", { name: "Save Settings" })).toBeEnabled();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe("http://backend.test/api/integrations/azure-devops");
  });

  it("requires every field and posts nothing while one is empty", async () => {
    stored = integration();
    renderIntegration();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Save Settings" }));
    expect(await screen.findAllByText("This field is required")).toHaveLength(2);
    expect(screen.getByLabelText("Organization URL")).toHaveFocus();
    expect(setupCalls()).toHaveLength(0);
  });

  it("saves the values keyed by field key, says so, and shows it connected once loaded again", async () => {
    stored = integration();
    let answer: (response: Response) => void = () => {};
    setupAnswer = () => new Promise<Response>((resolve) => (answer = resolve));
    renderIntegration();
    const user = userEvent.setup();
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByRole("button", { name: "Saving..." })).toBeDisabled();
    answer(jsonResponse({ success: true, message: "Integration saved" }));

    expect(await screen.findByText("Settings saved successfully!")).toBeInTheDocument();
    expect(await screen.findByText("Azure DevOps is set up for your organization.")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Save Settings" })).not.toBeInTheDocument();

    const [url, init] = setupCalls()[0] ?? [];
    expect(String(url)).toBe("/api/integrations/azure-devops/setup");
    expect(JSON.parse(String(init?.body))).toEqual({
      organization_url: "https://dev.azure.com/babbage",
      personal_access_token: "pat-123",
    });
    expect(setupCalls()).toHaveLength(1);
  });

  it("shows the service hook's URL and secret once after setup, with copy buttons, and never again", async () => {
    const hook = {
      url: "https://argus.example/webhooks/azure-devops/5f0c8a4e-3b7d-4c61-9a2e-8d1f6b0e4c37",
      secret: "hook-secret-shown-once",
    };
    stored = integration();
    setupAnswer = () => {
      if (typeof stored === "object") {
        stored = {
          ...stored,
          activeIntegration: {
            integration_key: "azure-devops",
            is_active: true,
            properties: {},
            serviceHook: { url: hook.url },
          },
        };
      }
      return jsonResponse({ success: true, message: "Integration saved", serviceHook: hook });
    };
    renderIntegration();
    const user = userEvent.setup();
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Save Settings" }));

    expect(await screen.findByLabelText("Service hook secret")).toHaveValue(hook.secret);
    expect(screen.getByLabelText("Service hook URL")).toHaveValue(hook.url);
    expect(screen.getByText(/it is shown only once/)).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Copy service hook secret" }));
    // user-event's stand-in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe(hook.secret);
    expect(await screen.findByText("Copied")).toBeInTheDocument();

    // Opened again, the page has the URL only.
    fetchMock.mockClear();
    renderIntegration();
    const urls = await screen.findAllByLabelText("Service hook URL");
    expect(urls.at(-1)).toHaveValue(hook.url);
    expect(screen.getAllByLabelText("Service hook secret")).toHaveLength(1);
  });

  it("tells a team whose integration has no hook secret to generate one, and shows the new one", async () => {
    const hook = { url: "https://argus.example/webhooks/azure-devops/abc", secret: "a-new-secret" };
    stored = {
      ...integration(),
      isActive: true,
      activeIntegration: {
        integration_key: "azure-devops",
        is_active: true,
        properties: {},
        serviceHook: null,
      },
    };
    const original = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === "/api/integrations/azure-devops/hook-secret" && init?.method === "POST") {
        return jsonResponse({ success: true, message: "ok", data: hook });
      }
      return original ? original(input, init) : new Response(null, { status: 500 });
    });
    renderIntegration();
    expect(await screen.findByText(/no service-hook secret yet/)).toBeVisible();
    expect(screen.queryByLabelText("Service hook URL")).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Generate a new secret" }));
    expect(await screen.findByLabelText("Service hook secret")).toHaveValue(hook.secret);
    expect(screen.getByLabelText("Service hook URL")).toHaveValue(hook.url);
  });

  it("shows the server's message when saving fails, and keeps the form", async () => {
    stored = integration();
    setupAnswer = () => jsonResponse({ error: "Bad request", message: "The token was refused" }, 400);
    renderIntegration();
    const user = userEvent.setup();
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText("The token was refused")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save Settings" })).toBeEnabled();
    expect(screen.getByLabelText("Organization URL")).toHaveValue("https://dev.azure.com/babbage");
  });

  it("says 'Failed to save settings' when the answer carries no message", async () => {
    stored = integration();
    setupAnswer = () => new Response("oops", { status: 500 });
    renderIntegration();
    const user = userEvent.setup();
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText("Failed to save settings")).toBeInTheDocument();
  });

  it("shows the Connected panel instead of the form when the integration is active", async () => {
    stored = integration({ isActive: true });
    renderIntegration();
    expect(await screen.findByText("Azure DevOps is set up for your organization.")).toBeVisible();
    expect(screen.getByText("Connected")).toBeVisible();
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
  });

  it("offers Connect to the installation page for an integration without fields", async () => {
    stored = GITHUB_INTEGRATION;
    renderIntegration("github");
    expect(await screen.findByRole("link", { name: "Connect GitHub" })).toHaveAttribute(
      "href",
      "https://github.com/apps/argus/installations/new",
    );
    expect(screen.queryByText("Connected")).not.toBeInTheDocument();
    expect(screen.queryByText("Sandbox")).not.toBeInTheDocument();
  });

  it("shows a Sandbox badge while the code host is the sandbox, and Connect leads to its install page", async () => {
    stored = SANDBOX_GITHUB_INTEGRATION;
    renderIntegration("github");
    expect(await screen.findByRole("link", { name: "Connect GitHub" })).toHaveAttribute(
      "href",
      SANDBOX_GITHUB_INTEGRATION.links.oauth_url,
    );
    expect(screen.getByText("Sandbox")).toBeVisible();
  });

  it("shows a Connected badge, not Connect, once such an integration is active", async () => {
    stored = { ...GITHUB_INTEGRATION, isActive: true };
    renderIntegration("github");
    expect(await screen.findByText("Connected")).toBeVisible();
    expect(screen.queryByRole("link", { name: /Connect/ })).not.toBeInTheDocument();
  });

  it("says 'Integration not found' for a name the backend does not know", async () => {
    stored = 404;
    renderIntegration("gitlab");
    expect(await screen.findByRole("heading", { name: "Integration not found" })).toBeInTheDocument();
  });

  it("shows skeletons while loading, and 'Failed to load integration data' with Retry on failure", async () => {
    stored = 500;
    let open: (value: unknown) => void = () => {};
    gate = new Promise((resolve) => (open = resolve));
    renderIntegration();
    expect(await screen.findByText("Loading integration…")).toBeInTheDocument();
    open(undefined);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load integration data");
    stored = integration();
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("heading", { name: "Azure DevOps" })).toBeInTheDocument();
  });

  it("ends the session when the backend answers 401", async () => {
    stored = 401;
    renderIntegration();
    await waitFor(() =>
      expect(screen.getByText(/Login page/)).toHaveTextContent("redirectTo=%2Fintegrations%2Fazure-devops"),
    );
  });
});
