import { render, screen, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { contextWith, gateway } from "../../tests/support/client/fixtures";
import { NoFallback, PageBody } from "../../tests/support/client/stub-routes";
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

function thrown(fn: () => unknown): Response {
  try {
    fn();
  } catch (error) {
    return error as Response;
  }
  throw new Error("did not throw");
}

describe("guards", () => {
  it("sends a guest to /login, keeping the path and query", () => {
    const response = thrown(() => loader(loaderArgs("http://x/home?tab=2&q=a", gateway({ session: null }))));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fhome%3Ftab%3D2%26q%3Da");
  });

  it("remembers the page, not the data URL, when a client navigation's data request finds no session", () => {
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
      const response = thrown(() => guard(loaderArgs(url ?? "", guest), async () => new Response()));
      expect(response.headers.get("location")).toBe(location);
    }
  });

  it("runs the same guard as middleware before child loaders", () => {
    const guard = middleware[0];
    if (!guard) throw new Error("no middleware");
    const response = thrown(() =>
      guard(loaderArgs("http://x/home", gateway({ session: null })), async () => new Response()),
    );
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fhome");
  });

  it("gives the layout the user, never the token", () => {
    const data = loader(loaderArgs("http://x/home"));
    expect(data).toEqual({ user: gateway().session?.user });
    expect(JSON.stringify(data)).not.toContain("secret-token");
  });

  it("sends a signed-in visitor away from guest pages", () => {
    const response = thrown(() => guestLoader(loaderArgs("http://x/login")));
    expect(response.headers.get("location")).toBe("/home");
    expect(guestLoader(loaderArgs("http://x/login", gateway({ session: null })))).toBeNull();
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
});
