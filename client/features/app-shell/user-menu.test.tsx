import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, useLoaderData } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "../../../shared/contract/accounts.ts";
import { USER } from "../../../tests/support/client/fixtures";
import { LoginProbe, NoFallback } from "../../../tests/support/client/stub-routes";
import { UserMenu } from "./user-menu";

const fetchMock = vi.fn<typeof fetch>();
const onEditName = vi.fn();

function MenuRoute() {
  const { user } = useLoaderData<{ user: SessionUser }>();
  return <UserMenu user={user} onEditName={onEditName} />;
}

function renderMenu(user: SessionUser = USER) {
  const Stub = createRoutesStub([
    { path: "/home", loader: () => ({ user }), HydrateFallback: NoFallback, Component: MenuRoute },
    { path: "/login", Component: LoginProbe },
  ]);
  render(<Stub initialEntries={["/home"]} />);
}

async function openMenu(name = "Ada Lovelace") {
  const user = userEvent.setup();
  const trigger = await screen.findByRole("button", { name });
  await user.click(trigger);
  return { user, trigger };
}

beforeEach(() => vi.stubGlobal("fetch", fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  onEditName.mockReset();
});

describe("UserMenu", () => {
  it("shows name, email, formatted role, organisation, short user id and the session marker", async () => {
    renderMenu();
    const { trigger } = await openMenu();
    expect(trigger).toHaveAttribute("aria-expanded", "true");
    const panel = document.getElementById(trigger.getAttribute("aria-controls") ?? "") as HTMLElement;

    expect(within(panel).getByText("ada@example.com")).toBeInTheDocument();
    expect(within(panel).getByText("Org Admin")).toBeInTheDocument();
    expect(within(panel).getByText("Analytical Engines")).toBeInTheDocument();
    expect(within(panel).getByText("org-42")).toBeInTheDocument();
    const shortId = within(panel).getByText("89abcdef");
    expect(shortId).toHaveAttribute("title", "user-0123456789abcdef");
    expect(within(panel).getByText("Active Session")).toBeInTheDocument();
  });

  it("shows an empty role as User", async () => {
    renderMenu({ ...USER, role: "" });
    await openMenu();
    expect(screen.getByText("User")).toBeInTheDocument();
  });

  it("moves focus into the panel, and Escape closes it and gives focus back", async () => {
    renderMenu();
    const { user, trigger } = await openMenu();
    expect(screen.getByRole("button", { name: "Edit name" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(trigger).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("button", { name: "Sign Out" })).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
  });

  it.each([
    ["Edit name", "user"],
    ["Edit organization name", "org"],
  ])(
    "%s closes the panel and asks for the %s name dialog, to give focus back to the menu's button",
    async (name, kind) => {
      renderMenu();
      const { user, trigger } = await openMenu();
      await user.click(screen.getByRole("button", { name }));
      expect(onEditName).toHaveBeenCalledWith(kind, trigger);
      expect(trigger).toHaveAttribute("aria-expanded", "false");
    },
  );

  it("signs out through /auth/logout, then goes to /login", async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    renderMenu();
    const { user } = await openMenu();
    await user.click(screen.getByRole("button", { name: "Sign Out" }));
    expect(await screen.findByText("Login page")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith("/auth/logout", expect.objectContaining({ method: "POST" }));
  });

  it("still goes to /login when logout fails", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    renderMenu();
    const { user } = await openMenu();
    await user.click(screen.getByRole("button", { name: "Sign Out" }));
    expect(await screen.findByText("Login page")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
