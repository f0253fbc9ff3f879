import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Subscription } from "../../../shared/contract/billing.ts";
import type {
  Contributor,
  ContributorSuggestion,
  SeatStatus,
} from "../../../shared/contract/contributors.ts";
import { CONTRIBUTOR_MESSAGES, SEAT_MESSAGES } from "../../../shared/contract/contributors.ts";
import {
  FREE_PLAN,
  seats,
  subscription,
  subscriptionPageAnswer,
} from "../../../tests/support/client/billing-fixtures";
import { jsonResponse } from "../../../tests/support/client/fixtures";
import { renderPage } from "../../../tests/support/client/render-page";
import Subscriptions, { loader } from "../../routes/subscriptions";

const DAY_MS = 86_400_000;
const NAMES = [
  "Ada",
  "Bea",
  "Cal",
  "Dee",
  "Eli",
  "Fay",
  "Gus",
  "Hal",
  "Ivy",
  "Jo",
  "Kit",
  "Lu",
  "Max",
  "Ned",
  "Ola",
  "Pam",
  "Quin",
  "Rex",
  "Sal",
  "Tia",
  "Uma",
  "Vic",
  "Wes",
  "Xia",
  "Yan",
];

function person(name: string, index: number, overrides: Partial<Contributor> = {}): Contributor {
  return {
    id: `c-${index}`,
    name: `${name} Example`,
    platform_id: name.toLowerCase(),
    platform_type: "github",
    email: `${name.toLowerCase()}@example.com`,
    avatar_url: null,
    // Every third has no activity; the others were active `index` days ago.
    last_git_activity: index % 3 === 2 ? null : new Date(Date.now() - (index + 1) * DAY_MS).toISOString(),
    role: null,
    seat_id: null,
    ...overrides,
  };
}

/** The backend's paging, searching and sorting of GET /api/contributors, over `current.contributors`. */
function contributorsPage(params: URLSearchParams): Response {
  const page = Number(params.get("page") ?? 1);
  const pageSize = Number(params.get("pageSize") ?? 50);
  const search = (params.get("search") ?? "").toLowerCase();
  const sort = params.get("sort") ?? "name";
  const descending = sort.startsWith("-");
  const key = (descending ? sort.slice(1) : sort) as "name" | "platform_id" | "last_git_activity";
  const matching = current.contributors.filter((row) => row.name.toLowerCase().includes(search));
  const sorted = [...matching].sort((a, b) => {
    const [x, y] = [a[key], b[key]];
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * (descending ? -1 : 1);
  });
  return jsonResponse({
    success: true,
    data: sorted.slice((page - 1) * pageSize, page * pageSize),
    page: { total: matching.length, page, pageSize },
  });
}

const fetchMock = vi.fn<typeof fetch>();
let current: {
  subscription: Subscription | null;
  seats: SeatStatus;
  contributors: Contributor[];
  suggestions: ContributorSuggestion[];
};
let posts: Record<string, (body: unknown) => Response | Promise<Response>>;

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  current = {
    subscription: subscription(),
    seats: seats(5, 1),
    contributors: NAMES.map((name, index) => person(name, index, index === 1 ? { seat_id: "seat-1" } : {})),
    suggestions: [],
  };
  posts = {};
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const billing = subscriptionPageAnswer(url, current);
    if (billing) return billing;
    const list = new URL(url, "http://gateway.test");
    if (list.pathname === "/api/contributors" && (init?.method ?? "GET") === "GET")
      return contributorsPage(list.searchParams);
    if (url === "/api/contributors/suggestions") {
      return jsonResponse({ success: true, data: current.suggestions });
    }
    const answer = init?.method === "POST" ? posts[url] : undefined;
    if (answer) return answer(JSON.parse(String(init?.body)));
    throw new Error(`unexpected fetch ${init?.method ?? "GET"} ${url}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

async function renderTable() {
  renderPage({ path: "subscriptions", loader, Component: Subscriptions }, "/subscriptions");
  return screen.findByRole("table", {}, { timeout: 5000 });
}

/** The names in the table's rows, in order. */
function names(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getAllByRole("cell")[1]?.textContent ?? "");
}

/** The browser's calls for pages of contributors, the first one loaded with the page included. */
const contributorCalls = () =>
  fetchMock.mock.calls
    .map(([url]) => new URL(String(url), "http://gateway.test"))
    .filter((url) => url.pathname === "/api/contributors")
    .map((url) => `${url.pathname}${url.search}`);
const postsTo = (path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === path && init?.method === "POST");
const header = (name: string) => screen.getByRole("columnheader", { name: new RegExp(name) });
const plan = () => screen.getByRole("region", { name: "Current plan" });

describe("the contributors table", () => {
  it("shows each contributor's avatar, name, username, e-mail, role, last activity and seat, by name", async () => {
    const table = await renderTable();
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Avatar", "Name", "Username", "E-mail", "Role", "Last activity", "Seat"]);
    expect(names(table)).toEqual(NAMES.slice(0, 10).map((name) => `${name} Example`));
    const ada = within(table).getAllByRole("row")[1] as HTMLElement;
    expect(within(ada).getByText("ada")).toBeVisible();
    expect(within(ada).getByText("ada@example.com")).toBeVisible();
    expect(within(ada).getByText("User")).toBeVisible();
    expect(within(ada).getByText("1 day ago")).toBeVisible();
    const cal = within(table).getAllByRole("row")[3] as HTMLElement;
    expect(within(cal).getByText("No activity yet")).toBeVisible();
    expect(screen.getByRole("switch", { name: "Seat for Bea Example" })).toBeChecked();
    expect(screen.getByRole("switch", { name: "Seat for Ada Example" })).not.toBeChecked();
    expect(header("Name")).toHaveAttribute("aria-sort", "ascending");
  });

  it("pages 10 at a time by default, and 20 or 30 on request", async () => {
    const user = userEvent.setup();
    const table = await renderTable();
    expect(screen.getByText("Page 1 of 3")).toBeVisible();
    expect(screen.getByRole("button", { name: "Previous page" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(names(table)).toEqual(NAMES.slice(10, 20).map((name) => `${name} Example`)));
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(names(table)).toHaveLength(5));
    expect(screen.getByRole("button", { name: "Next page" })).toBeDisabled();

    const size = screen.getByRole("combobox", { name: "Rows per page" });
    expect([...(size as HTMLSelectElement).options].map((option) => option.value)).toEqual([
      "10",
      "20",
      "30",
    ]);
    await user.selectOptions(size, "20");
    await waitFor(() => expect(names(table)).toHaveLength(20));
    expect(screen.getByText("Page 1 of 2")).toBeVisible();
    await user.selectOptions(size, "30");
    await waitFor(() => expect(names(table)).toHaveLength(25));
    expect(screen.getByText("Page 1 of 1")).toBeVisible();
    // Each page came from the backend, never more than one page at a time.
    expect(contributorCalls()).toEqual([
      "/api/contributors?pageSize=10",
      "/api/contributors?page=2&pageSize=10&sort=name",
      "/api/contributors?page=3&pageSize=10&sort=name",
      "/api/contributors?pageSize=20&sort=name",
      "/api/contributors?pageSize=30&sort=name",
    ]);
  });

  it("sorts by a column's header button, telling assistive technology the direction", async () => {
    const user = userEvent.setup();
    const table = await renderTable();
    await user.click(within(header("Name")).getByRole("button"));
    expect(header("Name")).toHaveAttribute("aria-sort", "descending");
    expect(names(table)[0]).toBe("Yan Example");

    await user.click(within(header("Last activity")).getByRole("button"));
    expect(header("Last activity")).toHaveAttribute("aria-sort", "descending");
    expect(header("Name")).not.toHaveAttribute("aria-sort");
    // Latest activity first; whoever has none comes last whichever way.
    expect(names(table)[0]).toBe("Ada Example");
    await user.click(within(header("Last activity")).getByRole("button"));
    expect(header("Last activity")).toHaveAttribute("aria-sort", "ascending");
    expect(names(table)[0]).toBe("Yan Example");
    await user.selectOptions(screen.getByRole("combobox", { name: "Rows per page" }), "30");
    expect(
      names(table)
        .slice(-8)
        .every((name) => NAMES.indexOf(name.split(" ")[0] ?? "") % 3 === 2),
    ).toBe(true);
    // Email and role are not sortable: no button in their headers.
    expect(within(header("E-mail")).queryByRole("button")).toBeNull();
  });

  it("searches by name and starts again on the first page", async () => {
    const user = userEvent.setup();
    const table = await renderTable();
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await user.type(screen.getByRole("searchbox", { name: "Search by name" }), "ya");
    await waitFor(() => expect(names(table)).toEqual(["Yan Example"]));
    expect(screen.getByText("Page 1 of 1")).toBeVisible();
    // The typing paused once: one search for the whole word, from the first page.
    expect(contributorCalls().at(-1)).toBe("/api/contributors?pageSize=10&search=ya&sort=name");
    expect(contributorCalls().filter((call) => call.includes("search="))).toHaveLength(1);
    await user.type(screen.getByRole("searchbox", { name: "Search by name" }), "zz");
    expect(await screen.findByText("No contributor's name matches “yazz”.")).toBeVisible();
  });
});

describe("Add Contributor", () => {
  it("enables Add from 3 characters, adds through the API and shows the new contributor", async () => {
    const user = userEvent.setup();
    const newcomer = person("Zed", 99, { last_git_activity: null });
    posts["/api/contributors/add"] = () => {
      current.contributors.push(newcomer);
      return jsonResponse({
        success: true,
        created: true,
        message: CONTRIBUTOR_MESSAGES.added,
        data: newcomer,
      });
    };
    await renderTable();
    await user.click(screen.getByRole("button", { name: "Add Contributor" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Contributor" });
    const add = within(dialog).getByRole("button", { name: "Add" });
    const field = within(dialog).getByRole("textbox", { name: "GitHub username" });
    expect(add).toBeDisabled();
    await user.type(field, "ze");
    expect(add).toBeDisabled();
    await user.type(field, "d");
    expect(add).toBeEnabled();
    await user.click(add);

    expect(await screen.findByText(CONTRIBUTOR_MESSAGES.added)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === "/api/contributors/add") ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ platform_id: "zed", platform_type: "github" });
    // The page was asked for again: the newcomer sorts after the tenth, so page 1 keeps its ten.
    await waitFor(() => expect(contributorCalls()).toHaveLength(2));
    await user.type(screen.getByRole("searchbox", { name: "Search by name" }), "zed");
    expect(await screen.findByRole("switch", { name: "Seat for Zed Example" })).toBeVisible();
  });

  it("offers the people the code host knows who are not contributors yet, as a combobox's options", async () => {
    const user = userEvent.setup();
    current.suggestions = [
      { platform_id: "ada", name: "Ada Example" },
      { platform_id: "yoko-ono", name: "Yoko Ono" },
      { platform_id: "zed-zero", name: "Zed Zero" },
    ];
    posts["/api/contributors/add"] = () => {
      const added = person("Zed", 99, { platform_id: "zed-zero", name: "Zed Zero" });
      current.contributors = [...current.contributors, added];
      return jsonResponse({ success: true, created: true, message: CONTRIBUTOR_MESSAGES.added, data: added });
    };
    await renderTable();
    await user.click(screen.getByRole("button", { name: "Add Contributor" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Contributor" });
    const field = await within(dialog).findByRole("combobox", { name: "GitHub username" });
    const options = () =>
      [...(document.getElementById(field.getAttribute("list") ?? "")?.querySelectorAll("option") ?? [])].map(
        (option) => [option.value, option.textContent],
      );
    // Ada is in the table already.
    expect(options()).toEqual([
      ["yoko-ono", "Yoko Ono"],
      ["zed-zero", "Zed Zero"],
    ]);
    expect(field).toHaveAccessibleDescription(/Pick one of the 2 people the sandbox knows/);
    await user.type(field, "zed-zero");
    await user.click(within(dialog).getByRole("button", { name: "Add" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(postsTo("/api/contributors/add")).toHaveLength(1);

    // Once added, no longer offered.
    await user.click(screen.getByRole("button", { name: "Add Contributor" }));
    await within(await screen.findByRole("dialog", { name: "Add Contributor" })).findByRole("combobox");
    expect(options()).toEqual([["yoko-ono", "Yoko Ono"]]);
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url) === "/api/contributors/suggestions"),
    ).toHaveLength(1);
  });

  it("says when the contributor existed and was updated, and when adding failed, keeping the dialog open", async () => {
    const user = userEvent.setup();
    const ada = current.contributors[0] as Contributor;
    let answer = () => {
      current.contributors[0] = { ...ada, name: "Ada Renamed" };
      return jsonResponse({
        success: true,
        created: false,
        message: CONTRIBUTOR_MESSAGES.updated,
        data: { ...ada, name: "Ada Renamed" },
      });
    };
    posts["/api/contributors/add"] = () => answer();
    const table = await renderTable();
    await user.click(screen.getByRole("button", { name: "Add Contributor" }));
    await user.type(await screen.findByRole("textbox", { name: "GitHub username" }), "ada");
    await user.click(screen.getByRole("button", { name: "Add" }));
    expect(await screen.findByText(CONTRIBUTOR_MESSAGES.updated)).toBeVisible();
    await waitFor(() => expect(names(table)).toContain("Ada Renamed"));
    expect(names(table).filter((name) => name.startsWith("Ada"))).toHaveLength(1);

    answer = () => jsonResponse({ error: 'GitHub has no user named "nobody".' }, 404);
    await user.click(screen.getByRole("button", { name: "Add Contributor" }));
    await user.type(await screen.findByRole("textbox", { name: "GitHub username" }), "nobody");
    await user.click(screen.getByRole("button", { name: "Add" }));
    expect(await screen.findByText(CONTRIBUTOR_MESSAGES.addFailed)).toBeVisible();
    expect(screen.getByText('GitHub has no user named "nobody".')).toBeVisible();
    expect(screen.getByRole("dialog", { name: "Add Contributor" })).toBeVisible();
  });
});

describe("the seat switch", () => {
  function deferred() {
    let resolve: (response: Response) => void = () => {};
    const promise = new Promise<Response>((done) => {
      resolve = done;
    });
    return { promise, resolve };
  }

  it("counts the seat in the plan card at once, and keeps the backend's count", async () => {
    const user = userEvent.setup();
    const answer = deferred();
    posts["/api/seats/assign"] = () => answer.promise;
    await renderTable();
    expect(within(plan()).getByText("1 / 5 seats allocated")).toBeVisible();

    await user.click(screen.getByRole("switch", { name: "Seat for Ada Example" }));
    expect(within(plan()).getByText("2 / 5 seats allocated")).toBeVisible();
    expect(screen.getByRole("switch", { name: "Seat for Ada Example" })).toBeChecked();
    // Toggling again before the answer does nothing.
    await user.click(screen.getByRole("switch", { name: "Seat for Ada Example" }));
    expect(screen.getByRole("switch", { name: "Seat for Ada Example" })).toBeChecked();
    answer.resolve(jsonResponse({ success: true, message: "Seat assigned", data: seats(5, 3) }));
    // The backend's count wins (here someone else took a seat meanwhile).
    await waitFor(() => expect(within(plan()).getByText("3 / 5 seats allocated")).toBeVisible());
    expect(postsTo("/api/seats/assign")).toHaveLength(1);
    expect(JSON.parse(String(postsTo("/api/seats/assign")[0]?.[1]?.body))).toEqual({ userId: "c-0" });

    posts["/api/seats/unassign"] = () =>
      jsonResponse({ success: true, message: "Seat unassigned", data: seats(5, 2) });
    await user.click(screen.getByRole("switch", { name: "Seat for Bea Example" }));
    await waitFor(() => expect(within(plan()).getByText("2 / 5 seats allocated")).toBeVisible());
    expect(screen.getByRole("switch", { name: "Seat for Bea Example" })).not.toBeChecked();
  });

  it("rolls the switch and the count back when the backend refuses, with the failure toast", async () => {
    const user = userEvent.setup();
    const answer = deferred();
    posts["/api/seats/assign"] = () => answer.promise;
    await renderTable();
    await user.click(screen.getByRole("switch", { name: "Seat for Ada Example" }));
    expect(within(plan()).getByText("2 / 5 seats allocated")).toBeVisible();
    answer.resolve(jsonResponse({ error: SEAT_MESSAGES.allSeatsInUse }, 409));

    expect(await screen.findByText(CONTRIBUTOR_MESSAGES.toggleFailed)).toBeVisible();
    expect(within(plan()).getByText("1 / 5 seats allocated")).toBeVisible();
    expect(screen.getByRole("switch", { name: "Seat for Ada Example" })).not.toBeChecked();
  });

  it("is unavailable, with its reason reachable, when every seat is taken: only taking one back works", async () => {
    const user = userEvent.setup();
    current.seats = seats(1, 1);
    await renderTable();
    const ada = screen.getByRole("switch", { name: "Seat for Ada Example" });
    expect(ada).toHaveAttribute("aria-disabled", "true");
    expect(ada).toHaveAccessibleDescription(SEAT_MESSAGES.allSeatsInUse);
    // Focus shows the reason as a tooltip too.
    act(() => ada.focus());
    expect(await screen.findByRole("tooltip")).toHaveTextContent(SEAT_MESSAGES.allSeatsInUse);
    await user.click(ada);
    expect(ada).not.toBeChecked();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith("/api/seats"))).toBe(false);

    const bea = screen.getByRole("switch", { name: "Seat for Bea Example" });
    expect(bea).not.toHaveAttribute("aria-disabled");
    posts["/api/seats/unassign"] = () =>
      jsonResponse({ success: true, message: "Seat unassigned", data: seats(1, 0) });
    await user.click(bea);
    // A seat is free again: Ada's switch becomes available.
    await waitFor(() =>
      expect(screen.getByRole("switch", { name: "Seat for Ada Example" })).not.toHaveAttribute(
        "aria-disabled",
      ),
    );
  });

  it.each([
    ["on Free", () => subscription({ plan: FREE_PLAN }), SEAT_MESSAGES.notPro],
    ["without a subscription", () => null, SEAT_MESSAGES.notPro],
    ["once the subscription expired", () => subscription({ isExpired: true }), SEAT_MESSAGES.expired],
  ])("is unavailable %s, saying why", async (_case, make, message) => {
    current.subscription = make();
    await renderTable();
    for (const seat of screen.getAllByRole("switch")) {
      expect(seat).toHaveAttribute("aria-disabled", "true");
      expect(seat).toHaveAccessibleDescription(message);
    }
  });
});
