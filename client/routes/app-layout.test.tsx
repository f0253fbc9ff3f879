import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { confirmedAs, contextWith, gateway, USER } from "../../tests/support/client/fixtures";
import { NoFallback, PageBody, SettingsProbe } from "../../tests/support/client/stub-routes";
import AppLayout, { loader, middleware } from "./app-layout";
import { loader as guestLoader } from "./guest-layout";

function loaderArgs(url: string, value = gateway()) {
  return {
    request: new Request(url),
    context: contextWith(value),
    params: {},
    unstable_pattern: "",
  } as never;
}

async function rejected(promise: unknown): Promise<Response> {
  return Promise.resolve(promise).then(
    () => {
      throw new Error("did not throw");
    },
    (error: unknown) => error as Response,
  );
}

/** A session whose verified cookie is `USER`'s, and what the backend says of it. */
const sessionSaying = (confirmed: typeof USER | null) =>
  gateway({ session: { token: "secret-token", user: USER, confirmation: confirmedAs(confirmed) } });

describe("guards", () => {
  it("sends a guest to /login, keeping the path and query", async () => {
    const response = await rejected(
      loader(loaderArgs("http://x/home?tab=2&q=a", gateway({ session: null }))),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fhome%3Ftab%3D2%26q%3Da");
  });

  it("sends a session the backend says has ended to /login too, though its cookie verifies", async () => {
    const response = await rejected(loader(loaderArgs("http://x/settings?tab=ai", sessionSaying(null))));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fsettings%3Ftab%3Dai");
  });

  it("remembers the page, not the data URL, when a client navigation's data request finds no session", async () => {
    const guard = middleware[0];
    if (!guard) throw new Error("no middleware");
    const guest = gateway({ session: null });
    for (const [url, location] of [
      ["http://x/subscriptions.data?_routes=routes%2Fsubscriptions", "/login?redirectTo=%2Fsubscriptions"],
      [
        "http://x/settings.data?repositoryId=r1&_routes=root",
        "/login?redirectTo=%2Fsettings%3FrepositoryId%3Dr1",
      ],
      ["http://x/reviews/run-1.data", "/login?redirectTo=%2Freviews%2Frun-1"],
      ["http://x/_.data", "/login"],
    ]) {
      const response = await rejected(guard(loaderArgs(url ?? "", guest), async () => new Response()));
      expect(response.headers.get("location")).toBe(location);
    }
  });

  it("runs the same guard as middleware before child loaders", async () => {
    const guard = middleware[0];
    if (!guard) throw new Error("no middleware");
    let loaded = false;
    const response = await rejected(
      guard(loaderArgs("http://x/home", gateway({ session: null })), async () => {
        loaded = true;
        return new Response();
      }),
    );
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fhome");
    expect(loaded).toBe(false);
  });

  it("answers nothing the loaders made until the backend confirms the session, whichever loaders ran", async () => {
    const guard = middleware[0];
    if (!guard) throw new Error("no middleware");
    const page = new Response("the page");
    expect(await guard(loaderArgs("http://x/payment-cancel", sessionSaying(USER)), async () => page)).toBe(
      page,
    );
    const refused = await rejected(
      guard(
        loaderArgs("http://x/payment-cancel.data?_routes=routes%2Fpayment-cancel", sessionSaying(null)),
        async () => page,
      ),
    );
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/login?redirectTo=%2Fpayment-cancel");
  });

  it("gives the layout the user with the names the backend confirmed, never the token", async () => {
    const renamed = { ...USER, name: "Ada King", orgName: "Difference Engines" };
    const data = await loader(loaderArgs("http://x/home", sessionSaying(renamed)));
    expect(data).toEqual({ user: renamed });
    expect(JSON.stringify(data)).not.toContain("secret-token");
  });

  it("sends a signed-in visitor away from guest pages, but shows them to a session that has ended", async () => {
    const response = await rejected(guestLoader(loaderArgs("http://x/login")));
    expect(response.headers.get("location")).toBe("/home");
    expect(await guestLoader(loaderArgs("http://x/login", gateway({ session: null })))).toBeNull();
    expect(await guestLoader(loaderArgs("http://x/login", sessionSaying(null)))).toBeNull();
  });
});

describe("signed-in layout", () => {
  it("has the landmarks, the navigation with the active page and the account menu", async () => {
    const value = gateway();
    const Layout = createRoutesStub(
      [
        {
          path: "/",
          loader: (args) => loader(args as never),
          HydrateFallback: NoFallback,
          Component: AppLayout as never,
          children: [{ path: "home", handle: { title: "Home" }, Component: PageBody }],
        },
      ],
      contextWith(value),
    );
    render(<Layout initialEntries={["/home"]} />);

    expect(await screen.findByText("Page body")).toBeInTheDocument();
    expect(screen.getByRole("main")).toContainElement(screen.getByText("Page body"));
    expect(screen.getByRole("heading", { level: 1, name: "Home" })).toBeInTheDocument();
    const nav = screen.getAllByRole("navigation", { name: "Main" })[0] as HTMLElement;
    expect(within(nav).getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
    expect(within(nav).getByRole("link", { name: "Settings" })).not.toHaveAttribute("aria-current");
    expect(within(nav).getByRole("link", { name: "Integrations" })).toHaveAttribute("href", "/integrations");
    expect(screen.getAllByText("Analytical Engines").length).toBeGreaterThan(0);
    expect(screen.getByRole("button", { name: "Ada Lovelace" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Open navigation" })).toBeInTheDocument();
  });

  it("shows a navigation under way: a progress bar, and the page marked busy until the next one is there", async () => {
    let arrive: (value: null) => void = () => {};
    const Layout = createRoutesStub(
      [
        {
          path: "/",
          loader: (args) => loader(args as never),
          HydrateFallback: NoFallback,
          Component: AppLayout as never,
          children: [
            { path: "home", handle: { title: "Home" }, Component: PageBody },
            {
              path: "settings",
              handle: { title: "Settings" },
              loader: () => new Promise<null>((resolve) => (arrive = resolve)),
              Component: SettingsProbe,
            },
          ],
        },
      ],
      contextWith(gateway()),
    );
    render(<Layout initialEntries={["/home"]} />);
    await screen.findByText("Page body");
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(screen.getByRole("main")).toHaveAttribute("aria-busy", "false");

    const nav = screen.getAllByRole("navigation", { name: "Main" })[0] as HTMLElement;
    await userEvent.click(within(nav).getByRole("link", { name: "Settings" }));
    expect(await screen.findByRole("progressbar", { name: "Loading the page" })).toBeInTheDocument();
    expect(screen.getByRole("main")).toHaveAttribute("aria-busy", "true");
    // Still the page the user was on while the next one loads.
    expect(screen.getByText("Page body")).toBeInTheDocument();

    arrive(null);
    expect(await screen.findByText("Settings page")).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(screen.getByRole("main")).toHaveAttribute("aria-busy", "false");
  });
});
