import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Integration } from "../../shared/contract/code-hosts.ts";
import type { SuppressedFinding } from "../../shared/contract/reviews.ts";
import type { SettingTemplate, TeamRules } from "../../shared/contract/settings.ts";
import { SETTINGS_CATALOGUE, settingCategory } from "../../shared/settings-catalogue.ts";
import { GITHUB_INTEGRATION, integration, jsonResponse } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import { fakeResolvedCategory, fakeResolvedSettings } from "../../tests/support/client/settings-fixtures.ts";
import { forgetKeptTemplates } from "../features/settings/settings.server";
import { forgetTemplates } from "../features/settings/settings-templates-cache";
import SettingsRoute, { clientLoader, loader } from "./settings";

const REPOSITORY_ID = "3f0e7c1a-0000-4000-8000-000000000001";
/** An id no repository of the organisation has: the fake backend answers 404, as the real one does. */
const UNKNOWN_REPOSITORY_ID = "3f0e7c1a-0000-4000-8000-0000000000ff";
const TEMPLATES: SettingTemplate[] = SETTINGS_CATALOGUE.map((category) => ({
  ...category,
  default_value: [...category.default_value],
}));

const fetchMock = vi.fn<typeof fetch>();

/** The fake backend's state: organisation values per code host, and the repository's own. */
type Stored = Record<string, boolean | string[] | string | number>;
let organization: Record<string, Map<string, Stored>>;
let repository: Map<string, Stored>;
let integrations: Record<string, Integration | number>;
let templatesAnswer: () => Response;
/** Every GET waits for this (a test holds it to see the loading state). */
let gate: Promise<unknown>;
/** What a PUT answers instead of saving, when set; called with the category and the body. */
type SaveBody = { value: Record<string, boolean | string[] | string | number | null>; repositoryId?: string };
let refuseSave: ((category: string, body: SaveBody) => Response | Promise<Response>) | null;
/** The repository's team rules as the backend answers them (repository level only). */
let teamRules: TeamRules | null;
/** The repository's findings marked as noise, and the fingerprints posted again. */
let suppressed: SuppressedFinding[];
let released: string[];

function settingsAnswer(url: URL) {
  const repositoryId = url.searchParams.get("repositoryId");
  const integrationName = repositoryId ? "github" : (url.searchParams.get("integrationName") ?? "github");
  const level = repositoryId ? "repository" : "organization";
  const resolved = fakeResolvedSettings(
    TEMPLATES,
    level,
    organization[integrationName] ?? new Map(),
    repositoryId ? repository : new Map(),
  );
  return {
    success: true,
    data: {
      level,
      integrationName,
      repository: repositoryId ? { id: repositoryId, name: "engine", full_name: "babbage/engine" } : null,
      ...resolved,
      ...(repositoryId ? { teamRules } : {}),
    },
  };
}

function saveAnswer(url: URL, category: string, body: SaveBody) {
  const definition = settingCategory(category);
  if (!definition) return jsonResponse({ error: "Setting category not found" }, 404);
  const integrationName = body.repositoryId
    ? "github"
    : (url.searchParams.get("integrationName") ?? "github");
  const kept = Object.fromEntries(Object.entries(body.value).filter(([, value]) => value !== null)) as Stored;
  organization[integrationName] ??= new Map();
  if (body.repositoryId) repository.set(category, kept);
  else organization[integrationName]?.set(category, kept);
  const level = body.repositoryId ? "repository" : "organization";
  const { own, ...resolved } = fakeResolvedCategory(
    definition,
    level,
    organization[integrationName]?.get(category),
    body.repositoryId ? repository.get(category) : undefined,
  );
  return jsonResponse({
    success: true,
    message: "saved",
    data: {
      category,
      level,
      integrationName,
      repositoryId: body.repositoryId ?? null,
      value: own,
      ...resolved,
    },
  });
}

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  forgetTemplates();
  forgetKeptTemplates();
  organization = {};
  repository = new Map();
  integrations = { github: { ...GITHUB_INTEGRATION, isActive: true }, "azure-devops": integration() };
  templatesAnswer = () => jsonResponse({ success: true, data: TEMPLATES });
  gate = Promise.resolve();
  refuseSave = null;
  teamRules = null;
  suppressed = [];
  released = [];
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), "http://gateway.test");
    const path = url.pathname;
    if (path === "/auth/logout") return new Response(null, { status: 204 });
    const noise = /^\/api\/projects\/[^/]+\/suppressed-findings(?:\/([0-9a-f]+))?$/.exec(path);
    if (noise?.[1] && init?.method === "DELETE") {
      released.push(noise[1]);
      suppressed = suppressed.filter((entry) => entry.fingerprint !== noise[1]);
      return jsonResponse({ success: true });
    }
    if (noise) return jsonResponse({ success: true, data: { findings: suppressed } });
    const category = /^\/api\/settings\/([^/]+)$/.exec(path)?.[1];
    if (init?.method === "PUT" && category) {
      const body = JSON.parse(String(init.body));
      if (refuseSave) return refuseSave(decodeURIComponent(category), body);
      return saveAnswer(url, decodeURIComponent(category), body);
    }
    await gate;
    if (path === "/api/settings/templates") return templatesAnswer();
    if (path === "/api/settings") {
      return url.searchParams.get("repositoryId") === UNKNOWN_REPOSITORY_ID
        ? jsonResponse({ error: "Repository not found" }, 404)
        : jsonResponse(settingsAnswer(url));
    }
    const name = /^\/api\/integrations\/([^/]+)$/.exec(path)?.[1];
    if (name) {
      const found = integrations[decodeURIComponent(name)] ?? 404;
      return typeof found === "number"
        ? jsonResponse({ error: "Integration not found" }, found)
        : jsonResponse({ success: true, data: found });
    }
    throw new Error(`unexpected fetch ${url}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

/** The page with its server loader (the first HTML), or with its client loader (client navigations). */
function renderSettings(url = "/settings", { client = false } = {}) {
  return renderPage(
    {
      path: "settings",
      loader: client ? clientLoader : loader,
      Component: SettingsRoute,
    },
    url,
  );
}

const calls = (method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([input, init]) =>
      (init?.method ?? "GET") === method && new URL(String(input), "http://gateway.test").pathname === path,
  );
const saves = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === "PUT")
    .map(([input, init]) => ({ url: String(input), body: JSON.parse(String(init?.body)) }));

const switchNamed = (name: string) => screen.findByRole("switch", { name });

/** Every key of a category as null (inherited), then `values`. */
function category(name: string, values: Record<string, boolean | string[] | string | number | null> = {}) {
  const keys = settingCategory(name)?.default_value.map((item) => item.key) ?? [];
  return { ...Object.fromEntries(keys.map((key) => [key, null])), ...values };
}

describe("/settings, organisation view", () => {
  it("shows the title, the provider, one tab per category with its first line, and a switch per setting", async () => {
    renderSettings();
    expect(await screen.findByRole("heading", { name: "Organization Settings" })).toBeInTheDocument();
    const provider = screen.getByRole("combobox", { name: "Provider" });
    expect(provider).toHaveValue("github");
    expect(
      within(provider)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["GitHub", "Azure DevOps"]);

    const tabs = await screen.findByRole("tablist", { name: "Setting categories" });
    expect(
      within(tabs)
        .getAllByRole("tab")
        .map((tab) => tab.textContent),
    ).toEqual(["Account Preferences", "Review Scope", "Comment Style", "Built In Rules"]);
    const panel = screen.getByRole("tabpanel");
    expect(panel).toHaveTextContent("When reviews run.");
    expect(panel).not.toHaveTextContent("Auto review starts a review");
    const auto = await switchNamed("Review draft pull requests");
    expect(auto).toHaveAttribute("aria-checked", "false");
    expect(auto).toHaveAccessibleDescription(
      "Review pull requests while they are still drafts, not only once they are ready.",
    );
    expect(await switchNamed("Review new commits")).toHaveAttribute("aria-checked", "true");
    // The organisation view says nothing about inheritance.
    expect(screen.queryByText("Inherited from organization")).not.toBeInTheDocument();

    const [templates] = calls("GET", "/api/settings/templates");
    expect(String(templates?.[0])).toBe("http://backend.test/api/settings/templates?includeInactive=false");
    const [settings] = calls("GET", "/api/settings");
    expect(String(settings?.[0])).toBe("http://backend.test/api/settings?integrationName=github");
  });

  it("says 'Loading settings...' while loading and 'No settings available at this time.' without templates", async () => {
    let open: (value: unknown) => void = () => {};
    gate = new Promise((resolve) => (open = resolve));
    templatesAnswer = () => jsonResponse({ success: true, data: [] });
    renderSettings();
    expect(await screen.findByText("Loading settings...")).toBeInTheDocument();
    open(undefined);
    expect(await screen.findByText("No settings available at this time.")).toBeInTheDocument();
    expect(screen.queryByText("Loading settings...")).not.toBeInTheDocument();
  });

  it("offers to connect a code host the organisation has not connected", async () => {
    renderSettings("/settings?integrationName=azure-devops");
    expect(await screen.findByRole("combobox", { name: "Provider" })).toHaveValue("azure-devops");
    const card = await screen.findByRole("region", { name: "Connect to Azure DevOps" });
    expect(card).toHaveTextContent("Connect an Azure DevOps project with a personal access token.");
    expect(within(card).getByRole("link", { name: "Connect Azure DevOps" })).toHaveAttribute(
      "href",
      "/integrations/azure-devops",
    );
    expect(screen.queryByRole("switch")).not.toBeInTheDocument();
  });

  it("keeps the chosen provider in the query string", async () => {
    renderSettings("/settings", { client: true });
    await switchNamed("Review draft pull requests");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Provider" }), "azure-devops");
    expect(await screen.findByRole("region", { name: "Connect to Azure DevOps" })).toBeInTheDocument();
    const [, second] = calls("GET", "/api/settings");
    expect(new URL(String(second?.[0]), "http://gateway.test").search).toBe("?integrationName=azure-devops");
  });

  it("saves a switch at once with its whole category, and says so", async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => {};
    refuseSave = (name, body) =>
      new Promise<Response>((resolve) => {
        answer = resolve;
      }).then(() => saveAnswer(new URL("http://gateway.test/?integrationName=github"), name, body));
    renderSettings();
    const auto = await switchNamed("Review draft pull requests");
    await user.click(auto);
    // Optimistic: on before the answer.
    expect(auto).toHaveAttribute("aria-checked", "true");
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]).toEqual({
      url: "/api/settings/account_preferences?integrationName=github",
      body: { value: category("account_preferences", { review_draft_pull_requests: true }) },
    });
    await act(async () => answer(new Response()));
    expect(await screen.findByText("Organization setting updated successfully")).toBeInTheDocument();
    expect(auto).toHaveAttribute("aria-checked", "true");
    expect(organization.github?.get("account_preferences")).toEqual({ review_draft_pull_requests: true });
  });

  it("rolls a switch back with 'Failed to update {label}. Please try again.' when the backend cannot be reached", async () => {
    const user = userEvent.setup();
    refuseSave = () =>
      jsonResponse(
        { error: "Backend service unavailable. Please try again.", code: "UPSTREAM_UNAVAILABLE" },
        502,
      );
    renderSettings();
    const drafts = await switchNamed("Review draft pull requests");
    await user.click(drafts);
    expect(
      await screen.findByText("Failed to update Review draft pull requests. Please try again."),
    ).toBeInTheDocument();
    expect(drafts).toHaveAttribute("aria-checked", "false");

    // A network failure is the same.
    refuseSave = () => Promise.reject(new TypeError("Failed to fetch"));
    await user.click(drafts);
    await waitFor(() =>
      expect(screen.getAllByText(/Failed to update Review draft pull requests/)).toHaveLength(2),
    );
    expect(drafts).toHaveAttribute("aria-checked", "false");
  });

  it("shows the server's reason when it refuses a save, else 'Failed to update setting'", async () => {
    const user = userEvent.setup();
    refuseSave = () =>
      jsonResponse(
        {
          error: 'Unknown setting "review_draft_pull_requests"',
          code: "INVALID_REQUEST",
          message: 'Unknown setting "review_draft_pull_requests"',
        },
        400,
      );
    renderSettings();
    const auto = await switchNamed("Review draft pull requests");
    await user.click(auto);
    expect(await screen.findByText('Unknown setting "review_draft_pull_requests"')).toBeInTheDocument();
    expect(auto).toHaveAttribute("aria-checked", "false");

    refuseSave = () => new Response("nope", { status: 404 });
    await user.click(auto);
    expect(await screen.findByText("Failed to update setting")).toBeInTheDocument();
    expect(auto).toHaveAttribute("aria-checked", "false");
  });

  it("rolls back only the change that failed when two changes of one category overlap", async () => {
    const user = userEvent.setup();
    let failFirst = true;
    const bodies: unknown[] = [];
    refuseSave = (name, body) => {
      bodies.push(body.value);
      if (failFirst) {
        failFirst = false;
        return jsonResponse({ error: "boom" }, 500);
      }
      return saveAnswer(new URL("http://gateway.test/?integrationName=github"), name, body);
    };
    renderSettings();
    const auto = await switchNamed("Auto review");
    const drafts = await switchNamed("Review draft pull requests");
    await user.click(auto);
    await user.click(drafts);
    expect(await screen.findByText("Organization setting updated successfully")).toBeInTheDocument();
    expect(screen.getByText("Failed to update Auto review. Please try again.")).toBeInTheDocument();
    expect(auto).toHaveAttribute("aria-checked", "true");
    expect(drafts).toHaveAttribute("aria-checked", "true");
    // The second save did not carry the first, failed change.
    expect(bodies[1]).toEqual(category("account_preferences", { review_draft_pull_requests: true }));
  });

  it("works from the keyboard: arrows between tabs, Space on a switch", async () => {
    const user = userEvent.setup();
    renderSettings();
    await switchNamed("Review draft pull requests");
    screen.getByRole("tab", { name: "Account Preferences" }).focus();
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("tab", { name: "Review Scope" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel")).toHaveTextContent("What a review looks at.");
    await user.tab();
    await user.tab();
    const generated = screen.getByRole("switch", { name: "Skip generated files" });
    expect(generated).toHaveFocus();
    await user.keyboard(" ");
    expect(generated).toHaveAttribute("aria-checked", "false");
    expect(await screen.findByText("Organization setting updated successfully")).toBeInTheDocument();
    expect(saves()[0]?.url).toBe("/api/settings/review_scope?integrationName=github");
  });
});

describe("/settings, repository view", () => {
  const url = `/settings?repositoryId=${REPOSITORY_ID}&integrationKey=ik-1&integrationName=github&integrationType=git`;

  it("shows each setting as inherited or set on the repository, saves with the repository, and returns to inherited", async () => {
    const user = userEvent.setup();
    organization.github = new Map([["account_preferences", { review_draft_pull_requests: true }]]);
    repository.set("account_preferences", { review_new_commits: false });
    renderSettings(url);
    expect(await screen.findByRole("heading", { name: "Repository Settings" })).toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Provider" })).not.toBeInTheDocument();
    expect(await screen.findByText("babbage/engine")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Organization settings" })).toHaveAttribute(
      "href",
      "/settings?integrationName=github",
    );
    const auto = await switchNamed("Review draft pull requests");
    expect(auto).toHaveAttribute("aria-checked", "true");
    expect(auto).toHaveAccessibleDescription(expect.stringContaining("Inherited from organization"));
    const commits = screen.getByRole("switch", { name: "Review new commits" });
    expect(commits).toHaveAttribute("aria-checked", "false");
    expect(commits).toHaveAccessibleDescription(expect.stringContaining("Set on this repository"));
    expect(screen.getAllByRole("button", { name: /^Use organization value/ })).toHaveLength(1);

    await user.click(auto);
    expect(auto).toHaveAttribute("aria-checked", "false");
    expect(auto).toHaveAccessibleDescription(expect.stringContaining("Set on this repository"));
    expect(await screen.findByText("Repository setting updated successfully")).toBeInTheDocument();
    expect(saves()[0]).toEqual({
      url: "/api/settings/account_preferences?integrationKey=ik-1&integrationName=github",
      body: {
        value: category("account_preferences", {
          review_draft_pull_requests: false,
          review_new_commits: false,
        }),
        repositoryId: REPOSITORY_ID,
      },
    });

    const back = screen.getByRole("button", {
      name: "Use organization value (On) for Review draft pull requests",
    });
    await user.click(back);
    expect(auto).toHaveFocus();
    expect(auto).toHaveAttribute("aria-checked", "true");
    expect(auto).toHaveAccessibleDescription(expect.stringContaining("Inherited from organization"));
    await waitFor(() => expect(saves()).toHaveLength(2));
    expect(saves()[1]?.body.value).toEqual(category("account_preferences", { review_new_commits: false }));
    expect(repository.get("account_preferences")).toEqual({ review_new_commits: false });
    // The organisation is untouched.
    expect(organization.github.get("account_preferences")).toEqual({ review_draft_pull_requests: true });
  });

  it("lists the built-in rule families with a switch each, and turns one off for the repository", async () => {
    const user = userEvent.setup();
    renderSettings(url);
    await switchNamed("Review draft pull requests");
    await user.click(screen.getByRole("tab", { name: "Built In Rules" }));
    const panel = screen.getByRole("tabpanel");
    expect(panel).toHaveTextContent("Which rule families the built-in reviewer runs.");
    const sql = within(panel).getByRole("switch", { name: "SQL injection" });
    expect(sql).toHaveAttribute("aria-checked", "true");
    expect(sql).toHaveAccessibleDescription(expect.stringContaining("CWE-89"));
    // One switch per family of the catalogue, each named by its label.
    const families = settingCategory("built_in_rules")?.default_value ?? [];
    expect(within(panel).getAllByRole("switch")).toHaveLength(families.length);
    for (const family of families) within(panel).getByRole("switch", { name: family.label });
    await user.click(sql);
    expect(sql).toHaveAttribute("aria-checked", "false");
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]).toEqual({
      url: "/api/settings/built_in_rules?integrationKey=ik-1&integrationName=github",
      body: { value: category("built_in_rules", { sql_injection: false }), repositoryId: REPOSITORY_ID },
    });
  });

  it("opens on the tab a link names: the run page's link to the findings marked as noise", async () => {
    renderSettings(`${url}&tab=built_in_rules`);
    expect(await screen.findByRole("tab", { name: "Built In Rules", selected: true })).toBeInTheDocument();
    expect(await screen.findByRole("region", { name: "Findings marked as noise" })).toBeInTheDocument();
  });

  it("lists the findings marked as noise in the repository, and posts one again", async () => {
    const user = userEvent.setup();
    const fingerprint = "a".repeat(64);
    suppressed = [
      {
        fingerprint,
        finding: {
          ruleId: "sql-injection/js-template-query",
          severity: "critical",
          path: "src/orders.ts",
          line: 12,
          quote: "db.query(`SELECT * FROM orders WHERE id = ${id}`)",
          message: "SQL is built from untrusted data here.",
          fingerprint,
          source: "builtin",
        },
        feedback: { thumbsUp: 0, thumbsDown: 1 },
        suppressedAt: "2026-11-20T12:00:00.000Z",
      },
      // One no run kept (the runs' findings are capped): known by its fingerprint alone.
      {
        fingerprint: "b".repeat(64),
        finding: null,
        feedback: { thumbsUp: 0, thumbsDown: 2 },
        suppressedAt: "2026-11-19T09:00:00.000Z",
      },
    ];
    renderSettings(url);
    await switchNamed("Review draft pull requests");
    await user.click(screen.getByRole("tab", { name: "Built In Rules" }));
    const section = await screen.findByRole("region", { name: "Findings marked as noise" });
    const [item, unknown] = await within(section).findAllByRole("listitem");
    if (!item || !unknown) throw new Error("both findings are listed");
    expect(unknown).toHaveTextContent("Place unknown");
    expect(
      within(unknown).getByRole("button", { name: "Post it again: the finding bbbbbbbbbbbb" }),
    ).toBeEnabled();
    expect(item).toHaveTextContent("src/orders.ts:12");
    expect(item).toHaveTextContent("SQL is built from untrusted data here.");
    expect(item).toHaveTextContent("suppressed 20 Nov 2026, 12:00 UTC");
    await user.click(
      within(item).getByRole("button", {
        name: "Post it again: sql-injection/js-template-query in src/orders.ts:12",
      }),
    );
    await waitFor(() => expect(released).toEqual([fingerprint]));
    await waitFor(() => expect(within(section).getAllByRole("listitem")).toHaveLength(1));
    await user.click(
      within(section).getByRole("button", { name: "Post it again: the finding bbbbbbbbbbbb" }),
    );
    expect(
      await within(section).findByText("No finding is marked as noise in this repository."),
    ).toBeVisible();
  });

  it("lists the team rules the latest review read, and each one that did not load with why", async () => {
    const user = userEvent.setup();
    teamRules = {
      folder: ".argus/rules",
      baseSha: "0123456789abcdef0123456789abcdef01234567",
      readAt: "2026-11-20T12:00:00.000Z",
      rules: [
        {
          id: "no-console-log",
          path: ".argus/rules/hygiene.yml",
          language: "typescript",
          severity: "minor",
          category: "correctness",
          cwe: null,
          message: "Remove console.log before merging.",
        },
      ],
      invalid: [{ path: ".argus/rules/broken.yml", id: null, error: "not valid YAML: Unexpected end" }],
    };
    renderSettings(url);
    await switchNamed("Review draft pull requests");
    await user.click(screen.getByRole("tab", { name: "Built In Rules" }));
    const section = screen.getByRole("region", { name: "Team rules" });
    expect(section).toHaveTextContent(
      "Read from .argus/rules at 0123456 by the latest review, 20 Nov 2026, 12:00 UTC.",
    );
    const [loaded, broken] = within(section).getAllByRole("listitem");
    expect(loaded).toHaveTextContent("no-console-log");
    expect(loaded).toHaveTextContent("typescript · minor · correctness");
    expect(loaded).toHaveTextContent("Remove console.log before merging.");
    expect(broken).toHaveTextContent(".argus/rules/broken.yml");
    expect(broken).toHaveTextContent("Not loaded");
    expect(broken).toHaveTextContent("not valid YAML: Unexpected end");
  });

  it("says when no review has read the repository's rules yet", async () => {
    const user = userEvent.setup();
    renderSettings(url);
    await switchNamed("Review draft pull requests");
    await user.click(screen.getByRole("tab", { name: "Built In Rules" }));
    expect(screen.getByRole("region", { name: "Team rules" })).toHaveTextContent(
      "No review has read this repository's rules yet.",
    );
  });

  it("does not ask whether the code host is connected", async () => {
    renderSettings(url);
    await switchNamed("Review draft pull requests");
    expect(calls("GET", "/api/integrations/github")).toHaveLength(0);
    expect(String(calls("GET", "/api/settings")[0]?.[0])).toBe(
      `http://backend.test/api/settings?repositoryId=${REPOSITORY_ID}&integrationKey=ik-1&integrationName=github`,
    );
  });
});

describe("/settings, a repository link without its code host", () => {
  it("lets the backend take the repository's own code host", async () => {
    renderSettings(`/settings?repositoryId=${REPOSITORY_ID}`);
    await switchNamed("Review draft pull requests");
    expect(String(calls("GET", "/api/settings")[0]?.[0])).toBe(
      `http://backend.test/api/settings?repositoryId=${REPOSITORY_ID}`,
    );
    await userEvent.click(screen.getByRole("switch", { name: "Review draft pull requests" }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    // Saves name the code host the answer gave.
    expect(saves()[0]?.url).toBe("/api/settings/account_preferences?integrationName=github");
  });
});

describe("/settings, loading", () => {
  it("says 'Failed to load settings templates' with Retry, and loads them again", async () => {
    templatesAnswer = () => jsonResponse({ error: "boom" }, 500);
    renderSettings("/settings", { client: true });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load settings templates");
    templatesAnswer = () => jsonResponse({ success: true, data: TEMPLATES });
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await switchNamed("Review draft pull requests")).toBeInTheDocument();
  });

  it("says 'Failed to load settings' when the values do not load", async () => {
    fetchMock.mockImplementationOnce(async () => jsonResponse({ success: true, data: TEMPLATES }));
    fetchMock.mockImplementationOnce(async () => jsonResponse({ error: "boom" }, 500));
    renderSettings();
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load settings");
  });

  it("keeps the templates in the browser: client navigations load only the values", async () => {
    renderSettings("/settings", { client: true });
    await switchNamed("Review draft pull requests");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Provider" }), "azure-devops");
    await screen.findByRole("region", { name: "Connect to Azure DevOps" });
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Provider" }), "github");
    await switchNamed("Review draft pull requests");
    expect(calls("GET", "/api/settings")).toHaveLength(3);
    expect(calls("GET", "/api/settings/templates")).toHaveLength(1);
    // From the browser, through the gateway.
    expect(String(calls("GET", "/api/settings/templates")[0]?.[0])).toBe(
      "/api/settings/templates?includeInactive=false",
    );
  });

  it("says the code host is unknown for a provider no integration has", async () => {
    renderSettings("/settings?integrationName=gitlab");
    expect(await screen.findByText("Integration not found")).toBeInTheDocument();
  });

  it.each([
    ["the first HTML", false],
    ["a client navigation", true],
  ])("says the repository was not found, with a way home, on %s", async (_, client) => {
    renderSettings(`/settings?repositoryId=${UNKNOWN_REPOSITORY_ID}`, { client });
    expect(await screen.findByText("Repository not found")).toBeInTheDocument();
    expect(screen.queryByText(/Check your connection/)).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/home");
  });

  it("ends the session when the backend answers 401", async () => {
    templatesAnswer = () => jsonResponse({ error: "Invalid or expired session" }, 401);
    renderSettings("/settings?integrationName=github");
    await waitFor(() =>
      expect(screen.getByText(/Login page/)).toHaveTextContent(
        "redirectTo=%2Fsettings%3FintegrationName%3Dgithub",
      ),
    );
  });
});

// Last: a toast of one test can still show in the next, and these look for the texts the tests above do.
describe("/settings, pattern lists", () => {
  async function openReviewScope(url = "/settings") {
    const user = userEvent.setup();
    renderSettings(url);
    await user.click(await screen.findByRole("tab", { name: "Review Scope" }));
    return user;
  }

  it("saves a pattern list on Save only, one pattern a line, and says so", async () => {
    const user = await openReviewScope();
    const paths = screen.getByRole("textbox", { name: "Ignored paths" });
    expect(paths).toHaveValue("");
    expect(paths).toHaveAccessibleDescription(expect.stringContaining("one glob pattern per line"));
    const save = screen.getByRole("button", { name: "Save Ignored paths" });
    expect(save).toBeDisabled();

    await user.type(paths, "docs/**{Enter}{Enter}  *.snap  {Enter}docs/**");
    expect(saves()).toEqual([]);
    await user.click(save);
    expect(await screen.findByText("Organization setting updated successfully")).toBeInTheDocument();
    expect(saves()).toEqual([
      {
        url: "/api/settings/review_scope?integrationName=github",
        body: { value: category("review_scope", { ignored_paths: ["docs/**", "*.snap"] }) },
      },
    ]);
    // The list as saved: trimmed, blank lines and repeats gone.
    expect(paths).toHaveValue("docs/**\n*.snap");
    expect(save).toBeDisabled();
    expect(organization.github?.get("review_scope")).toEqual({ ignored_paths: ["docs/**", "*.snap"] });
  });

  it("rolls the list back with 'Failed to update {label}. Please try again.' when the save fails", async () => {
    organization.github = new Map([["review_scope", { ignored_branches: ["release/*"] }]]);
    refuseSave = () => jsonResponse({ error: "boom" }, 502);
    const user = await openReviewScope();
    const branches = screen.getByRole("textbox", { name: "Ignored branches" });
    expect(branches).toHaveValue("release/*");
    await user.type(branches, "{Enter}dependabot/**");
    await user.click(screen.getByRole("button", { name: "Save Ignored branches" }));
    expect(
      await screen.findByText("Failed to update Ignored branches. Please try again."),
    ).toBeInTheDocument();
    expect(branches).toHaveValue("release/*");
    expect(organization.github.get("review_scope")).toEqual({ ignored_branches: ["release/*"] });
  });

  it("refuses a list that breaks the rules with the backend's own message, sending nothing", async () => {
    const user = await openReviewScope();
    const paths = screen.getByRole("textbox", { name: "Ignored paths" });
    await user.click(paths);
    await user.paste(Array.from({ length: 51 }, (_, i) => `dir${i}/**`).join("\n"));
    await user.click(screen.getByRole("button", { name: "Save Ignored paths" }));
    const message = "Ignored paths: at most 50 patterns, one per line (this list has 51)";
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(paths).toHaveAttribute("aria-invalid", "true");
    expect(paths).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(saves()).toEqual([]);
    // Editing clears the message.
    await user.type(paths, "x");
    expect(screen.queryByText(message)).not.toBeInTheDocument();
  });

  it("refuses an invalid glob with a message naming it, sending nothing", async () => {
    const user = await openReviewScope();
    const paths = screen.getByRole("textbox", { name: "Ignored paths" });
    await user.click(paths);
    await user.paste("docs/**\n[invalid");
    await user.click(screen.getByRole("button", { name: "Save Ignored paths" }));
    const message = 'Ignored paths: "[invalid" is not a valid glob pattern: "[" is never closed by "]"';
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(paths).toHaveAttribute("aria-invalid", "true");
    expect(saves()).toEqual([]);
  });

  it("shows a repository's list as inherited, saves its own from the keyboard, and returns to inherited", async () => {
    organization.github = new Map([["review_scope", { ignored_paths: ["docs/**", "*.snap"] }]]);
    const user = await openReviewScope(
      `/settings?repositoryId=${REPOSITORY_ID}&integrationKey=ik-1&integrationName=github`,
    );
    const paths = screen.getByRole("textbox", { name: "Ignored paths" });
    expect(paths).toHaveValue("docs/**\n*.snap");
    expect(paths).toHaveAccessibleDescription(expect.stringContaining("Inherited from organization"));

    await user.clear(paths);
    await user.type(paths, "vendor/**");
    await user.tab();
    expect(screen.getByRole("button", { name: "Save Ignored paths" })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(await screen.findByText("Repository setting updated successfully")).toBeInTheDocument();
    expect(saves()[0]?.body).toEqual({
      value: category("review_scope", { ignored_paths: ["vendor/**"] }),
      repositoryId: REPOSITORY_ID,
    });
    expect(paths).toHaveAccessibleDescription(expect.stringContaining("Set on this repository"));

    await user.click(
      screen.getByRole("button", { name: "Use organization value (2 patterns) for Ignored paths" }),
    );
    expect(paths).toHaveFocus();
    expect(paths).toHaveValue("docs/**\n*.snap");
    await waitFor(() => expect(repository.get("review_scope")).toEqual({}));
  });
});

// After the pattern lists, for the same reason: saved-toasts of earlier tests may still show.
describe("/settings, choices, numbers and text", () => {
  async function openTab(name: string, url = "/settings") {
    const user = userEvent.setup();
    renderSettings(url);
    await user.click(await screen.findByRole("tab", { name }));
    return user;
  }
  const failed = (label: string) => screen.findByText(`Failed to update ${label}. Please try again.`);

  it("saves a choice at once with its whole category, and rolls it back when the save fails", async () => {
    const user = await openTab("Comment Style");
    const threshold = screen.getByRole("combobox", { name: "Lowest severity reported" });
    expect(threshold).toHaveValue("major");
    expect(threshold).toHaveAccessibleDescription(
      expect.stringContaining("Report findings of this severity"),
    );
    expect(
      within(threshold)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["Critical only", "Major and above", "Minor and above", "Everything, including notes"]);

    await user.selectOptions(threshold, "Minor and above");
    await waitFor(() =>
      expect(organization.github?.get("comment_style")).toEqual({ severity_threshold: "minor" }),
    );
    expect(saves()).toEqual([
      {
        url: "/api/settings/comment_style?integrationName=github",
        body: { value: category("comment_style", { severity_threshold: "minor" }) },
      },
    ]);
    expect(threshold).toHaveValue("minor");

    refuseSave = () => jsonResponse({ error: "boom" }, 502);
    await user.selectOptions(threshold, "critical");
    expect(await failed("Lowest severity reported")).toBeInTheDocument();
    expect(threshold).toHaveValue("minor");
    expect(organization.github?.get("comment_style")).toEqual({ severity_threshold: "minor" });
  });

  it("saves a number on Enter, refuses one out of bounds or not whole with the shared message, and rolls back", async () => {
    const user = await openTab("Comment Style");
    const most = screen.getByRole("spinbutton", { name: "Most findings per review" });
    expect(most).toHaveValue(10);
    expect(most).toHaveAccessibleDescription(expect.stringContaining("Post at most this many findings"));
    const save = screen.getByRole("button", { name: "Save Most findings per review" });
    expect(save).toBeDisabled();
    const message = "Most findings per review: a whole number from 1 to 50";
    for (const wrong of ["51", "0", "2.5"]) {
      await user.clear(most);
      await user.type(most, `${wrong}{Enter}`);
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(most).toHaveAttribute("aria-invalid", "true");
      expect(most).toHaveAccessibleDescription(expect.stringContaining(message));
    }
    expect(saves()).toEqual([]);

    await user.clear(most);
    await user.type(most, "25{Enter}");
    await waitFor(() => expect(organization.github?.get("comment_style")).toEqual({ max_findings: 25 }));
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    expect(saves()[0]?.body).toEqual({ value: category("comment_style", { max_findings: 25 }) });
    expect(most).toHaveValue(25);
    expect(save).toBeDisabled();

    refuseSave = () => jsonResponse({ error: "boom" }, 503);
    await user.clear(most);
    await user.type(most, "3");
    await user.click(save);
    expect(await failed("Most findings per review")).toBeInTheDocument();
    expect(most).toHaveValue(25);
  });

  it("saves text on Save with a character count, refuses text too long, and rolls back", async () => {
    const user = await openTab("Review Scope");
    const instructions = screen.getByRole("textbox", { name: "Review instructions" });
    expect(instructions).toHaveValue("");
    expect(instructions).toHaveAccessibleDescription(expect.stringContaining("0 of 4000 characters"));
    const save = screen.getByRole("button", { name: "Save Review instructions" });

    await user.type(instructions, "  Prefer early returns.{Enter}");
    // Blanks around the text are not kept, so they are not counted.
    expect(screen.getByText("21 of 4000 characters")).toBeInTheDocument();
    expect(saves()).toEqual([]);
    await user.click(save);
    await waitFor(() =>
      expect(organization.github?.get("review_scope")).toEqual({
        review_instructions: "Prefer early returns.",
      }),
    );
    expect(instructions).toHaveValue("Prefer early returns.");

    await user.clear(instructions);
    await user.click(instructions);
    await user.paste("x".repeat(4001));
    await user.click(save);
    const message = "Review instructions: at most 4000 characters (this text has 4001)";
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(instructions).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(saves()).toHaveLength(1);

    refuseSave = () => jsonResponse({ error: "boom" }, 502);
    await user.clear(instructions);
    await user.type(instructions, "Something else");
    await user.click(save);
    expect(await failed("Review instructions")).toBeInTheDocument();
    expect(instructions).toHaveValue("Prefer early returns.");
  });

  it("shows a repository's values as inherited, sets its own, and returns each to the organisation's", async () => {
    organization.github = new Map<string, Stored>([
      ["comment_style", { severity_threshold: "minor", max_findings: 20 }],
      ["review_scope", { review_instructions: "Be brief." }],
    ]);
    const user = await openTab(
      "Comment Style",
      `/settings?repositoryId=${REPOSITORY_ID}&integrationKey=ik-1&integrationName=github`,
    );
    const threshold = screen.getByRole("combobox", { name: "Lowest severity reported" });
    const most = screen.getByRole("spinbutton", { name: "Most findings per review" });
    expect(threshold).toHaveValue("minor");
    expect(most).toHaveValue(20);
    expect(threshold).toHaveAccessibleDescription(expect.stringContaining("Inherited from organization"));

    await user.selectOptions(threshold, "critical");
    await waitFor(() => expect(repository.get("comment_style")).toEqual({ severity_threshold: "critical" }));
    expect(saves()[0]?.body).toEqual({
      value: category("comment_style", { severity_threshold: "critical" }),
      repositoryId: REPOSITORY_ID,
    });
    expect(threshold).toHaveAccessibleDescription(expect.stringContaining("Set on this repository"));
    await user.clear(most);
    await user.type(most, "5{Enter}");
    await waitFor(() =>
      expect(repository.get("comment_style")).toEqual({ severity_threshold: "critical", max_findings: 5 }),
    );

    await user.click(
      screen.getByRole("button", {
        name: "Use organization value (Minor and above) for Lowest severity reported",
      }),
    );
    expect(threshold).toHaveFocus();
    await waitFor(() => expect(repository.get("comment_style")).toEqual({ max_findings: 5 }));
    expect(threshold).toHaveValue("minor");
    await user.click(
      screen.getByRole("button", { name: "Use organization value (20) for Most findings per review" }),
    );
    await waitFor(() => expect(repository.get("comment_style")).toEqual({}));
    expect(most).toHaveValue(20);

    await user.click(screen.getByRole("tab", { name: "Review Scope" }));
    const instructions = screen.getByRole("textbox", { name: "Review instructions" });
    expect(instructions).toHaveValue("Be brief.");
    await user.clear(instructions);
    await user.click(screen.getByRole("button", { name: "Save Review instructions" }));
    await waitFor(() => expect(repository.get("review_scope")).toEqual({ review_instructions: "" }));
    await user.click(
      screen.getByRole("button", { name: "Use organization value (set) for Review instructions" }),
    );
    await waitFor(() => expect(repository.get("review_scope")).toEqual({}));
    expect(instructions).toHaveValue("Be brief.");
  });
});
