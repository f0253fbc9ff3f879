/**
 * The name edit dialogs in the signed-in frame (docs/product.md#signed-in-layout): the calls, the
 * session renewal, the new name at once, failures that keep what was typed, and the limit.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, Outlet, useLoaderData } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EDITABLE_NAME_MAX } from "../../../shared/constants.ts";
import type { SessionUser } from "../../../shared/contract/accounts.ts";
import { jsonResponse, rootData, USER } from "../../../tests/support/client/fixtures";
import { NoFallback, PageBody, PassThrough } from "../../../tests/support/client/stub-routes";
import { ToastProvider } from "../../components/ui";
import { AppShell } from "./app-shell";

const fetchMock = vi.fn<typeof fetch>();
/** What the session cookie says; POST /auth/session "renews" it from what the backend saved. */
let session: SessionUser;
let saved: SessionUser;

function Layout() {
  const { user } = useLoaderData<{ user: SessionUser }>();
  return (
    <AppShell user={user}>
      <Outlet />
    </AppShell>
  );
}

function renderShell() {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => rootData(),
      HydrateFallback: NoFallback,
      Component: PassThrough,
      children: [
        {
          loader: () => ({ user: session }),
          Component: Layout,
          children: [{ path: "home", Component: PageBody }],
        },
      ],
    },
  ]);
  render(
    <ToastProvider>
      <Stub initialEntries={["/home"]} />
    </ToastProvider>,
  );
}

function answer(update: () => Response) {
  fetchMock.mockImplementation(async (input, init) => {
    const path = String(input);
    if (path === "/auth/session" && init?.method === "POST") {
      session = saved;
      return jsonResponse({ user: session });
    }
    if (path === "/api/user/update" || path === "/api/org/update") {
      const response = update();
      if (response.ok) {
        const { name } = JSON.parse(String(init?.body)).updateData;
        saved = path === "/api/user/update" ? { ...saved, name } : { ...saved, orgName: name };
      }
      return response;
    }
    throw new Error(`unexpected fetch ${path}`);
  });
}

async function openDialog(action: "Edit name" | "Edit organization name") {
  const user = userEvent.setup();
  const trigger = await screen.findByRole("button", { name: /Ada Lovelace/ });
  await user.click(trigger);
  const panel = await screen.findByRole("dialog", { name: "Account" });
  await user.click(within(panel).getByRole("button", { name: action }));
  const dialog = await screen.findByRole("dialog", { name: action });
  return { user, trigger, dialog };
}

beforeEach(() => {
  session = USER;
  saved = USER;
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe("editing the user name", () => {
  it("saves the trimmed name, renews the session, shows it at once and confirms", async () => {
    answer(() => jsonResponse({ success: true, message: "Name updated" }));
    renderShell();
    const { user, trigger, dialog } = await openDialog("Edit name");
    const field = within(dialog).getByLabelText("Name");
    expect(field).toHaveValue("Ada Lovelace");
    expect(field).toHaveFocus();

    await user.clear(field);
    await user.type(field, "  Ada King  ");
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));

    expect(await screen.findByText("Name updated")).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "Edit name" })).not.toBeInTheDocument();
    const [updatePath, updateInit] = fetchMock.mock.calls[0] ?? [];
    expect(updatePath).toBe("/api/user/update");
    expect(updateInit?.method).toBe("POST");
    expect(JSON.parse(String(updateInit?.body))).toEqual({ updateData: { name: "Ada King" } });
    expect(fetchMock.mock.calls[1]?.[0]).toBe("/auth/session");
    expect(fetchMock.mock.calls[1]?.[1]?.method).toBe("POST");
    // The menu's button shows the new name, and focus went back to it.
    await waitFor(() => expect(trigger).toHaveAccessibleName(/Ada King/));
    expect(trigger).toHaveFocus();
  });

  it("keeps the dialog and the typed value on failure, with the server's message", async () => {
    answer(() => jsonResponse({ error: "Bad request", message: "Name is not allowed" }, 400));
    renderShell();
    const { user, dialog } = await openDialog("Edit name");
    const field = within(dialog).getByLabelText("Name");
    await user.clear(field);
    await user.type(field, "Countess");
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));

    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Name is not allowed");
    expect(field).toHaveValue("Countess");
    expect(within(dialog).getByRole("button", { name: "Save Changes" })).toBeEnabled();
    expect(fetchMock.mock.calls.some(([path]) => path === "/auth/session")).toBe(false);
  });

  it("says so plainly when the answer is not the server's", async () => {
    answer(() => new Response("<html>oops</html>", { status: 502 }));
    renderShell();
    const { user, dialog } = await openDialog("Edit name");
    await user.type(within(dialog).getByLabelText("Name"), "!");
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Failed to update name. Please try again.",
    );
  });

  it("requires a name that is not blank, without calling the server", async () => {
    answer(() => jsonResponse({ success: true, message: "Name updated" }));
    renderShell();
    const { user, dialog } = await openDialog("Edit name");
    const field = within(dialog).getByLabelText("Name");
    await user.clear(field);
    await user.type(field, "   ");
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByText("This field is required")).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription("This field is required");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("stops at the limit and says so", async () => {
    renderShell();
    const { user, dialog } = await openDialog("Edit name");
    const field = within(dialog).getByLabelText("Name");
    await user.clear(field);
    await user.type(field, "x".repeat(EDITABLE_NAME_MAX - 1));
    expect(within(dialog).queryByText("Character limit reached")).not.toBeInTheDocument();
    await user.type(field, "yz");
    expect(field).toHaveValue(`${"x".repeat(EDITABLE_NAME_MAX - 1)}y`);
    expect(within(dialog).getByText("Character limit reached")).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription("Character limit reached");
  });

  it("saves once when Save is pressed twice, and Cancel closes without a call", async () => {
    let release: (response: Response) => void = () => {};
    fetchMock.mockImplementation(
      () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    );
    renderShell();
    const { user, dialog } = await openDialog("Edit name");
    const save = within(dialog).getByRole("button", { name: "Save Changes" });
    await user.dblClick(save);
    await waitFor(() => expect(save).toHaveAttribute("aria-busy", "true"));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    release(jsonResponse({ error: "Bad request", message: "Nope" }, 400));
    await within(dialog).findByRole("alert");

    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog", { name: "Edit name" })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe("editing the organisation name", () => {
  it("saves through /api/org/update and shows the new name in the sidebar at once", async () => {
    answer(() => jsonResponse({ success: true, message: "Organization name updated" }));
    renderShell();
    const { user, dialog } = await openDialog("Edit organization name");
    const field = within(dialog).getByLabelText("Organization name");
    expect(field).toHaveValue("Analytical Engines");
    await user.clear(field);
    await user.type(field, "Difference Engines");
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));

    expect(await screen.findByText("Organization name updated")).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/org/update");
    expect(await screen.findByText("Difference Engines")).toBeInTheDocument();
  });

  it("opens from the sidebar's edit button too, and gives focus back to it", async () => {
    renderShell();
    const user = userEvent.setup();
    const edit = await screen.findByRole("button", { name: "Edit organization name" });
    await user.click(edit);
    const dialog = await screen.findByRole("dialog", { name: "Edit organization name" });
    await user.keyboard("{Escape}");
    expect(dialog).not.toBeInTheDocument();
    expect(edit).toHaveFocus();
  });
});
