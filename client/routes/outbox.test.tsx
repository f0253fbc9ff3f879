import { render, screen, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  contextWith,
  gateway,
  jsonResponse,
  rootData,
  thrownStatusOf,
} from "../../tests/support/client/fixtures";
import { NoFallback, PassThrough } from "../../tests/support/client/stub-routes";
import Outbox, { loader } from "./outbox";

const fetchMock = vi.fn<typeof fetch>();
const VERIFY = {
  id: "m1",
  to: "ada@example.com",
  subject: "Verify your email for Argus",
  text: "Open this link to verify your address.",
  links: ["http://127.0.0.1:3000/email-verified?mode=verifyEmail&oobCode=abc", "javascript:alert(1)"],
  sentAt: "2026-11-24T09:30:00.000Z",
};

beforeEach(() => vi.stubGlobal("fetch", fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

async function load(localMode: boolean) {
  const context = contextWith(gateway({ session: null, localMode }));
  const request = new Request("http://gateway.test/outbox");
  return loader({ context, request, params: {}, url: new URL(request.url) } as never);
}

describe("/outbox loader", () => {
  it("is a 404 when local mode is off, without asking the backend", async () => {
    expect(await thrownStatusOf(load(false))).toBe(404);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("is a 404 when the backend has no outbox", async () => {
    fetchMock.mockResolvedValue(jsonResponse({ error: "Not found" }, 404));
    expect(await thrownStatusOf(load(true))).toBe(404);
  });

  it("reads the backend's outbox in local mode", async () => {
    fetchMock.mockResolvedValue(jsonResponse({ messages: [VERIFY] }));
    await expect(load(true)).resolves.toEqual({ status: "ok", messages: [VERIFY] });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("http://backend.test/auth/outbox");
  });

  it("answers an error for other failures", async () => {
    fetchMock.mockResolvedValue(jsonResponse({ error: "Boom" }, 500));
    await expect(load(true)).resolves.toEqual({ status: "error", message: "Failed to load the outbox." });
  });
});

function renderOutbox(data: Awaited<ReturnType<typeof loader>>) {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => rootData(gateway({ session: null, localMode: true })),
      HydrateFallback: NoFallback,
      Component: PassThrough,
      children: [{ path: "outbox", Component: Outbox, loader: () => data }],
    },
  ]);
  render(<Stub initialEntries={["/outbox"]} />);
}

describe("/outbox page", () => {
  it("says what it is and lists each e-mail with its address, subject, time and links", async () => {
    renderOutbox({ status: "ok", messages: [VERIFY] });
    expect(await screen.findByRole("heading", { level: 1, name: /Local outbox/ })).toBeInTheDocument();
    expect(screen.getByText(/no e-mail is sent/i)).toBeInTheDocument();
    const item = screen.getByRole("heading", { name: VERIFY.subject }).closest("li") as HTMLElement;
    expect(within(item).getByText("ada@example.com")).toBeInTheDocument();
    expect(within(item).getByText("24 Nov 2026, 09:30:00 UTC")).toHaveAttribute("datetime", VERIFY.sentAt);
    expect(within(item).getByRole("link", { name: VERIFY.links[0] })).toHaveAttribute(
      "href",
      VERIFY.links[0],
    );
    // A link that is not a web address is shown, never made clickable.
    expect(within(item).getByText("javascript:alert(1)").closest("a")).toBeNull();
  });

  it("has an empty state", async () => {
    renderOutbox({ status: "ok", messages: [] });
    expect(await screen.findByText("No e-mails yet")).toBeInTheDocument();
  });

  it("shows a failure to load", async () => {
    renderOutbox({ status: "error", message: "Failed to load the outbox." });
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load the outbox.");
    expect(screen.getByRole("button", { name: "Refresh" })).toBeEnabled();
  });
});
