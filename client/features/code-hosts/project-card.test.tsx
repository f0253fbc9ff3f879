import { render, screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { project } from "../../../tests/support/client/fixtures";
import { ProjectCard } from "./project-card";

function renderCard(p = project()) {
  const router = createMemoryRouter([{ path: "/", element: <ProjectCard project={p} /> }]);
  render(<RouterProvider router={router} />);
  return screen.getByRole("article");
}

describe("ProjectCard", () => {
  it("shows the full name, visibility, branch, origin and status badges", () => {
    const card = renderCard();
    expect(within(card).getByRole("heading", { name: "babbage/engine" })).toBeInTheDocument();
    expect(within(card).getByText("Private")).toBeInTheDocument();
    expect(within(card).getByText("The difference engine")).toBeInTheDocument();
    expect(within(card).getByText("main")).toBeInTheDocument();
    expect(within(card).getByText("Source")).toBeInTheDocument();
    expect(within(card).getByText("Active")).toBeInTheDocument();
    expect(within(card).getByText("Webhook")).toBeInTheDocument();
    expect(within(card).queryByText("Sandbox")).not.toBeInTheDocument();
    expect(within(card).queryByRole("link", { name: /Pull requests/ })).not.toBeInTheDocument();
  });

  it("marks a sample repository of the sandbox code host", () => {
    const card = renderCard(project({ properties: { full_name: "argus-sandbox/web-app", sandbox: true } }));
    expect(within(card).getByText("Sandbox")).toBeVisible();
    expect(
      within(card).getByRole("link", { name: "Pull requests of argus-sandbox/web-app (sandbox)" }),
    ).toHaveAttribute("href", "/sandbox/repositories/p1/pulls");
  });

  it("gives a sandbox repository no webhook badge and no View link to github.com: it exists only here", () => {
    const card = renderCard(
      project({
        webhook_active: false,
        external_link: "https://github.com/argus-sandbox/web-app",
        properties: { full_name: "argus-sandbox/web-app", sandbox: true },
      }),
    );
    expect(within(card).queryByText(/Webhook/)).not.toBeInTheDocument();
    expect(within(card).queryByRole("link", { name: /^View/ })).not.toBeInTheDocument();
    for (const link of within(card).getAllByRole("link")) {
      expect(link.getAttribute("href")).not.toMatch(/^https?:/);
    }
  });

  it("falls back to the name, Public, Fork, the fallback description text and inactive badges", () => {
    const card = renderCard(
      project({
        name: "loom",
        active: false,
        webhook_active: false,
        properties: { full_name: undefined, private: false, description: null, fork: true },
      }),
    );
    expect(within(card).getByRole("heading", { name: "loom" })).toBeInTheDocument();
    expect(within(card).getByText("Public")).toBeInTheDocument();
    expect(within(card).getByText("No description available")).toBeInTheDocument();
    expect(within(card).getByText("Fork")).toBeInTheDocument();
    expect(within(card).getByText("Inactive")).toBeInTheDocument();
    expect(within(card).getByText("Webhook off")).toBeInTheDocument();
    expect(within(card).queryByText("Active")).not.toBeInTheDocument();
  });

  it("links View to the external repository in a new tab, safely", () => {
    const card = renderCard();
    const view = within(card).getByRole("link", { name: /^View/ });
    expect(view).toHaveAttribute("href", "https://github.com/babbage/engine");
    expect(view).toHaveAttribute("target", "_blank");
    expect(view).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("links the settings icon to /settings with the repository query", () => {
    const card = renderCard();
    const settings = within(card).getByRole("link", { name: "Settings for babbage/engine" });
    const url = new URL(settings.getAttribute("href") ?? "", "http://x");
    expect(url.pathname).toBe("/settings");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      repositoryId: "p1",
      integrationKey: "ik-1",
      integrationName: "github",
      integrationType: "git",
    });
  });

  it("links the reviews icon to the Reviews page filtered to the repository", () => {
    const card = renderCard();
    expect(within(card).getByRole("link", { name: "Reviews of babbage/engine" })).toHaveAttribute(
      "href",
      "/reviews?projectId=p1",
    );
  });
});
