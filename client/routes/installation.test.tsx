import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INSTALLATION_COUNTDOWN_SECONDS } from "../../shared/constants.ts";
import { gateway, jsonResponse, nextAnswer, restoreFetch } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import Installation, { loader } from "./installation";

const fetchMock = vi.fn<typeof fetch>();
/** What POST /api/integrations/github/setup answers, call by call (the last one again). */
let answers: Parameters<typeof nextAnswer>[0];

function renderInstallation(query: string, options: { strict?: boolean; guest?: boolean } = {}) {
  renderPage({ path: "installation", loader, Component: Installation }, `/installation${query}`, {
    strict: options.strict,
    value: options.guest ? gateway({ session: null }) : gateway(),
  });
}

const INSTALL = "?setup_action=install&installation_id=123&code=abc";
const setupCalls = () =>
  fetchMock.mock.calls.filter(([url]) => String(url) === "/api/integrations/github/setup");

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  answers = [() => jsonResponse({ success: true, message: "Installed" })];
  fetchMock.mockImplementation(async (input, init) => {
    const setup = String(input) === "/api/integrations/github/setup" && init?.method === "POST";
    const answer = setup ? nextAnswer(answers) : undefined;
    if (answer) return answer;
    throw new Error(`unexpected fetch ${String(input)}`);
  });
});
afterEach(() => restoreFetch(fetchMock));

describe("/installation", () => {
  it("goes to / without setup_action", async () => {
    renderInstallation("?installation_id=123&code=abc");
    expect(await screen.findByText("Index page")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("waits for approval when the installation is a request", async () => {
    renderInstallation("?setup_action=request");
    expect(await screen.findByRole("heading", { name: "Installation Pending" })).toBeInTheDocument();
    expect(screen.getByText("Please wait for request approval...")).toBeVisible();
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ["code", "?setup_action=install&installation_id=123"],
    ["installation_id", "?setup_action=install&code=abc"],
  ])("says 'Missing required parameters' without %s", async (_, query) => {
    renderInstallation(query);
    expect(await screen.findByRole("alert")).toHaveTextContent("Missing required parameters");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("completes the installation once, with the session's organisation, even under strict effects", async () => {
    let answer: (response: Response) => void = () => {};
    answers = [() => new Promise<Response>((resolve) => (answer = resolve))];
    renderInstallation(INSTALL, { strict: true });
    expect(await screen.findByText("Completing the installation…")).toBeInTheDocument();
    await waitFor(() => expect(setupCalls()).toHaveLength(1));
    answer(jsonResponse({ success: true, message: "Installed" }));
    expect(await screen.findByRole("heading", { name: "Installation complete" })).toBeInTheDocument();

    expect(setupCalls()).toHaveLength(1);
    const [, init] = setupCalls()[0] ?? [];
    expect(init?.method).toBe("POST");
    // The code proves to the backend that this user may connect the installation.
    expect(JSON.parse(String(init?.body))).toEqual({ org_id: "org-42", installationId: "123", code: "abc" });
  });

  it("counts down, then goes to /; Back to Home goes there at once", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    renderInstallation(INSTALL);
    expect(await screen.findByText(/Going home in 5 seconds/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    // The text can be on the screen before the effect that starts the countdown has run (a busy
    // machine): the clock moves once the countdown's interval is there.
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText(/Going home in 4 seconds/)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime((INSTALLATION_COUNTDOWN_SECONDS - 2) * 1000));
    expect(screen.getByText(/Going home in 1 second…/)).toBeInTheDocument();
    expect(screen.queryByText("Index page")).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1000));
    expect(await screen.findByText("Index page")).toBeInTheDocument();
  });

  it("shows the server's message on failure, and Retry Installation calls again", async () => {
    answers = [
      () =>
        jsonResponse({ error: "Bad request", message: "This installation belongs to another account" }, 400),
      () => jsonResponse({ success: true, message: "Installed" }),
    ];
    renderInstallation(INSTALL);
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByRole("heading", { level: 2 })).toHaveTextContent(
      "Failed to complete installation",
    );
    expect(alert).toHaveTextContent("This installation belongs to another account");
    await userEvent.click(within(alert).getByRole("button", { name: "Retry Installation" }));
    expect(await screen.findByRole("heading", { name: "Installation complete" })).toBeInTheDocument();
    expect(setupCalls()).toHaveLength(2);
  });

  it.each([
    ["an answer without a message", () => new Response("oops", { status: 502 })],
    ["success: false", () => jsonResponse({ success: false, message: "" })],
  ])("says 'Failed to complete installation' for %s", async (_, answer) => {
    answers = [answer];
    renderInstallation(INSTALL);
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByRole("heading", { level: 2 })).toHaveTextContent(
      "Failed to complete installation",
    );
    expect(screen.getByRole("button", { name: "Retry Installation" })).toBeEnabled();
  });

  it("sends a guest to /login, remembering the query", async () => {
    renderInstallation(INSTALL, { guest: true });
    expect(await screen.findByText(/Login page/)).toHaveTextContent(
      `redirectTo=${encodeURIComponent(`/installation${INSTALL}`)}`,
    );
  });
});
