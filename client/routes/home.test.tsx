import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Project } from "../../shared/contract/code-hosts.ts";
import { HOME_PAGE_SIZE } from "../../shared/contract/paging.ts";
import { gateway, jsonResponse, project } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import Home, { loader } from "./home";

const fetchMock = vi.fn<typeof fetch>();

function renderHome(value = gateway(), url = "/home") {
  renderPage({ path: "home", loader, Component: Home }, url, { value });
}

function backendAnswers(...responses: (() => Response | Promise<Response>)[]) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === "/auth/logout") return new Response(null, { status: 204 });
    const next = responses.length > 1 ? responses.shift() : responses[0];
    if (!next) throw new Error(`unexpected fetch ${url}`);
    return next();
  });
}

function projectsBody(
  projects: Project[],
  page = { total: projects.length, page: 1, pageSize: HOME_PAGE_SIZE },
) {
  return jsonResponse({ success: true, data: { projects }, page });
}

beforeEach(() => vi.stubGlobal("fetch", fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe("/home", () => {
  it("greets the user and lists the repositories from the backend, with the session's bearer", async () => {
    backendAnswers(() =>
      projectsBody([
        project(),
        project({ id: "p2", name: "loom", properties: { full_name: "babbage/loom" } }),
      ]),
    );
    renderHome();

    expect(await screen.findByRole("heading", { name: "Welcome back, Ada" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "How to get a review" })).toBeInTheDocument();
    const list = await screen.findByRole("list");
    expect(within(list).getAllByRole("article")).toHaveLength(2);
    expect(within(list).getByRole("heading", { name: "babbage/loom" })).toBeInTheDocument();

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe(
      `http://backend.test/api/projects?integrationType=git&integrationName=github&pageSize=${HOME_PAGE_SIZE}`,
    );
    expect(new Headers(init?.headers).get("authorization")).toBe("Bearer secret-token");
    expect(new Headers(init?.headers).get("x-request-id")).toBe("req-1");
  });

  it("names the bot command that asks for a review", async () => {
    backendAnswers(() => projectsBody([]));
    renderHome();
    const intro = await screen.findByRole("region", { name: "How to get a review" });
    expect(within(intro).getByText("@argus review").tagName).toBe("CODE");
  });

  it("asks for the page and search in the URL, says the total and links the pages around it", async () => {
    const cards = Array.from({ length: HOME_PAGE_SIZE }, (_, i) =>
      project({ id: `p${i}`, name: `engine-${i}`, properties: { full_name: `babbage/engine-${i}` } }),
    );
    backendAnswers(() => projectsBody(cards, { total: 100, page: 2, pageSize: HOME_PAGE_SIZE }));
    renderHome(gateway(), "/home?search=engine&page=2");

    expect(
      await screen.findByText("100 repositories match “engine”", {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    const list = screen.getByRole("list");
    expect(within(list).getAllByRole("article")).toHaveLength(HOME_PAGE_SIZE);
    // Each icon is drawn once for the page; the cards only point at the drawings.
    expect(list.querySelectorAll("path")).toHaveLength(0);
    expect(list.querySelectorAll("use").length).toBeGreaterThan(HOME_PAGE_SIZE * 5);
    expect(new Set([...document.querySelectorAll("symbol")].map((symbol) => symbol.id)).size).toBe(
      document.querySelectorAll("symbol").length,
    );
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(
      `http://backend.test/api/projects?integrationType=git&integrationName=github&page=2&pageSize=${HOME_PAGE_SIZE}&search=engine`,
    );
    expect(screen.getByRole("searchbox", { name: "Search repositories" })).toHaveValue("engine");
    const pages = screen.getByRole("navigation", { name: "Repository pages" });
    expect(pages).toHaveTextContent(`Page 2 of ${Math.ceil(100 / HOME_PAGE_SIZE)}`);
    expect(within(pages).getByRole("link", { name: "Previous" })).toHaveAttribute(
      "href",
      "/home?search=engine",
    );
    expect(within(pages).getByRole("link", { name: "Next" })).toHaveAttribute(
      "href",
      "/home?search=engine&page=3",
    );
  });

  it("says when no repository matches the search, with a way back to all of them", async () => {
    backendAnswers(() => projectsBody([]));
    renderHome(gateway(), "/home?search=nothing");
    expect(
      await screen.findByRole("heading", { name: "No repository matches “nothing”" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Show all repositories" })).toHaveAttribute("href", "/home");
    expect(screen.queryByText("No projects found")).not.toBeInTheDocument();
  });

  it("shows skeletons while the list is on its way", async () => {
    let answer: (response: Response) => void = () => {};
    backendAnswers(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderHome();
    expect(await screen.findByText("Loading repositories…")).toBeInTheDocument();
    answer(projectsBody([project()]));
    expect(await screen.findByRole("heading", { name: "babbage/engine" })).toBeInTheDocument();
    expect(screen.queryByText("Loading repositories…")).not.toBeInTheDocument();
  });

  it("shows the empty state, leading to the code host's setup", async () => {
    backendAnswers(() => projectsBody([]));
    renderHome();
    expect(await screen.findByRole("heading", { name: "No projects found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Connect GitHub" })).toHaveAttribute(
      "href",
      "/integrations/github",
    );
  });

  it("asks for the code host in its query, marks it as the current one, and keeps it in the search", async () => {
    backendAnswers(() => projectsBody([]));
    renderHome(gateway(), "/home?integrationName=azure-devops");
    expect(await screen.findByRole("link", { name: "Connect Azure DevOps" })).toHaveAttribute(
      "href",
      "/integrations/azure-devops",
    );
    const [call] = fetchMock.mock.calls[0] ?? [];
    expect(new URL(String(call)).searchParams.get("integrationName")).toBe("azure-devops");
    const choice = screen.getByRole("navigation", { name: "Code host" });
    expect(within(choice).getByRole("link", { name: "Azure DevOps" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    expect(within(choice).getByRole("link", { name: "GitHub" })).toHaveAttribute("href", "/home");
    expect(screen.getByRole("search").querySelector("input[type=hidden]")).toHaveAttribute(
      "value",
      "azure-devops",
    );
  });

  it("shows the error state, and Retry shows skeletons again until the list arrives", async () => {
    let answer: (response: Response) => void = () => {};
    backendAnswers(
      () => jsonResponse({ error: "boom" }, 500),
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    renderHome();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load projects data.");

    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Loading repositories…")).toBeInTheDocument();
    expect(screen.queryByText("Failed to load projects data.")).not.toBeInTheDocument();

    answer(projectsBody([project()]));
    expect(await screen.findByRole("heading", { name: "babbage/engine" })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes("/api/projects"))).toHaveLength(2);
  });

  it("ends the session and goes to /login when the backend answers 401", async () => {
    backendAnswers(() => jsonResponse({ error: "Unauthorized" }, 401));
    renderHome();
    expect(await screen.findByText(/Login page/)).toHaveTextContent("Login page ?redirectTo=%2Fhome");
    expect(fetchMock).toHaveBeenCalledWith("/auth/logout", expect.objectContaining({ method: "POST" }));
  });

  it("sends a guest to /login without calling the backend", async () => {
    renderHome(gateway({ session: null }));
    await waitFor(() => expect(screen.getByText(/Login page/)).toHaveTextContent("redirectTo=%2Fhome"));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
