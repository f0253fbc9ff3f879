/** The Radix-based primitives: keyboard behaviour, focus and labels (what a user relies on). */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { TOOLTIP_MAX_WIDTH_PX } from "../../../shared/constants.ts";
import { Button, Dialog, Drawer, Popover, Switch, Tabs, Tooltip } from ".";

function DialogHarness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Rename</Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Edit name"
        description="Shown to your team."
        actions={<Button onClick={() => setOpen(false)}>Cancel</Button>}
      >
        <input aria-label="Name" />
      </Dialog>
    </>
  );
}

describe("Dialog", () => {
  it("is a named, described modal that traps focus, closes on Escape and gives focus back", async () => {
    const user = userEvent.setup();
    render(<DialogHarness />);
    const opener = screen.getByRole("button", { name: "Rename" });
    await user.click(opener);

    const dialog = screen.getByRole("dialog", { name: "Edit name" });
    expect(dialog).toHaveAccessibleDescription("Shown to your team.");
    // Modal: the page behind is hidden from assistive technology.
    expect(screen.queryByRole("button", { name: "Rename" })).not.toBeInTheDocument();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    // Tab cycles within the dialog.
    for (let i = 0; i < 4; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it("closes with its close button", async () => {
    const user = userEvent.setup();
    render(<DialogHarness />);
    await user.click(screen.getByRole("button", { name: "Rename" }));
    await user.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});

describe("Tabs", () => {
  it("moves between tabs with the arrow keys and shows the chosen panel", async () => {
    const user = userEvent.setup();
    render(
      <Tabs
        label="Settings sections"
        items={[
          { value: "general", label: "General", content: <p>General panel</p> },
          { value: "reviews", label: "Reviews", content: <p>Reviews panel</p> },
          { value: "billing", label: "Billing", content: <p>Billing panel</p> },
        ]}
      />,
    );
    expect(screen.getByRole("tablist", { name: "Settings sections" })).toBeInTheDocument();
    const general = screen.getByRole("tab", { name: "General" });
    expect(general).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel")).toHaveTextContent("General panel");

    await user.tab();
    expect(general).toHaveFocus();
    await user.keyboard("{ArrowRight}");
    const reviews = screen.getByRole("tab", { name: "Reviews" });
    expect(reviews).toHaveFocus();
    expect(reviews).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel")).toHaveTextContent("Reviews panel");

    await user.keyboard("{ArrowLeft}{ArrowLeft}");
    expect(screen.getByRole("tab", { name: "Billing" })).toHaveFocus();
  });
});

describe("Switch", () => {
  it("is labelled and described, and Space toggles it", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <Switch
        label="Automatic reviews"
        description="Review every pull request when it opens."
        onCheckedChange={onChange}
      />,
    );
    const control = screen.getByRole("switch", { name: "Automatic reviews" });
    expect(control).toHaveAccessibleDescription("Review every pull request when it opens.");
    expect(control).toHaveAttribute("aria-checked", "false");

    control.focus();
    await user.keyboard(" ");
    expect(control).toHaveAttribute("aria-checked", "true");
    expect(onChange).toHaveBeenLastCalledWith(true);

    // The label is associated: clicking it toggles too.
    await user.click(screen.getByText("Automatic reviews"));
    expect(control).toHaveAttribute("aria-checked", "false");
  });
});

describe("Tooltip", () => {
  it("shows on keyboard focus, describes its trigger, keeps to its maximum width and hides on Escape", async () => {
    const user = userEvent.setup();
    render(
      <Tooltip content="user-0123456789abcdef">
        <button type="button">89abcdef</button>
      </Tooltip>,
    );
    await user.tab();
    const tip = await screen.findByRole("tooltip");
    expect(tip).toHaveTextContent("user-0123456789abcdef");
    const trigger = screen.getByRole("button", { name: "89abcdef" });
    expect(trigger).toHaveAccessibleDescription("user-0123456789abcdef");
    expect(
      document.querySelector<HTMLElement>("[data-radix-popper-content-wrapper] > div")?.style.maxWidth,
    ).toBe(`${TOOLTIP_MAX_WIDTH_PX}px`);
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("tooltip")).not.toBeInTheDocument());
  });
});

function PopoverHarness() {
  return (
    <>
      <Popover label="Account" renderTrigger={(trigger) => <Button {...trigger}>Account</Button>}>
        {(close) => <Button onClick={() => close()}>Sign Out</Button>}
      </Popover>
      <Button>Elsewhere</Button>
    </>
  );
}
describe("Popover", () => {
  it("opens a named panel, moves focus into it, and Escape closes it and gives focus back", async () => {
    const user = userEvent.setup();
    render(<PopoverHarness />);
    const trigger = screen.getByRole("button", { name: "Account" });
    await user.click(trigger);
    const panel = await screen.findByRole("dialog", { name: "Account" });
    expect(trigger).toHaveAttribute("aria-expanded", "true");
    expect(trigger).toHaveAttribute("aria-controls", panel.id);
    await waitFor(() => expect(within(panel).getByRole("button", { name: "Sign Out" })).toHaveFocus());

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(trigger).toHaveAttribute("aria-expanded", "false");
    expect(trigger).toHaveFocus();
  });

  it("toggles on its button and closes on a click outside without taking focus back", async () => {
    const user = userEvent.setup();
    render(<PopoverHarness />);
    const trigger = screen.getByRole("button", { name: "Account" });
    await user.click(trigger);
    await screen.findByRole("dialog", { name: "Account" });
    await user.click(trigger);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    await user.click(trigger);
    await screen.findByRole("dialog", { name: "Account" });
    const elsewhere = screen.getByRole("button", { name: "Elsewhere" });
    await user.click(elsewhere);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(elsewhere).toHaveFocus();
  });
});

function DrawerHarness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open navigation</Button>
      <Drawer open={open} onClose={() => setOpen(false)} label="Navigation" closeLabel="Close navigation">
        <a href="/home">Home</a>
      </Drawer>
    </>
  );
}
describe("Drawer", () => {
  it("is a named modal that Escape closes, giving focus back to the button that opened it", async () => {
    const user = userEvent.setup();
    render(<DrawerHarness />);
    const opener = screen.getByRole("button", { name: "Open navigation" });
    await user.click(opener);
    const drawer = await screen.findByRole("dialog", { name: "Navigation" });
    expect(screen.queryByRole("button", { name: "Open navigation" })).not.toBeInTheDocument();
    await waitFor(() => expect(drawer).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    // Opening again after the first close works the same way.
    await user.click(opener);
    await user.click(await screen.findByRole("button", { name: "Close navigation" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});
