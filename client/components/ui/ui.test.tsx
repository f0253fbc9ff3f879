import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TOAST_DURATION_MS } from "../../../shared/constants.ts";
import { Alert, BackLink, Button, IconButton, TextField, ToastProvider, useToast } from ".";

afterEach(() => vi.useRealTimers());

describe("Button", () => {
  it("is busy, disabled and keeps its label while loading", async () => {
    const onClick = vi.fn();
    render(
      <Button loading onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole("button", { name: "Save" });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute("aria-busy", "true");
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it("defaults to type=button so it never submits a form by accident", () => {
    render(<Button>Go</Button>);
    expect(screen.getByRole("button", { name: "Go" })).toHaveAttribute("type", "button");
  });

  it("names icon-only buttons by their label", () => {
    render(<IconButton label="Close" icon={<svg />} />);
    expect(screen.getByRole("button", { name: "Close" })).toBeInTheDocument();
  });
});

describe("BackLink", () => {
  it("links back by its text alone, its arrow hidden from assistive technology", () => {
    render(
      <MemoryRouter>
        <BackLink to="/reviews">Back to reviews</BackLink>
      </MemoryRouter>,
    );
    const link = screen.getByRole("link", { name: "Back to reviews" });
    expect(link).toHaveAttribute("href", "/reviews");
    expect(link.querySelector("svg")).toHaveAttribute("aria-hidden", "true");
  });
});

describe("TextField", () => {
  it("labels the input and describes it by its hint", () => {
    render(<TextField label="Email" hint="Your work address" />);
    const input = screen.getByLabelText("Email");
    expect(input).toHaveAccessibleDescription("Your work address");
    expect(input).not.toHaveAttribute("aria-invalid");
  });

  it("marks the input invalid and describes it by the error instead of the hint", () => {
    render(<TextField label="Email" hint="Your work address" error="This field is required" />);
    const input = screen.getByLabelText("Email");
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input).toHaveAccessibleDescription("This field is required");
  });
});

describe("Alert", () => {
  it("interrupts for danger and stays polite otherwise", () => {
    render(
      <>
        <Alert tone="danger">Broken</Alert>
        <Alert tone="success">Saved</Alert>
      </>,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("Broken");
    expect(screen.getByRole("status")).toHaveTextContent("Saved");
  });
});

function Trigger() {
  const { toast } = useToast();
  return (
    <button type="button" onClick={() => toast({ tone: "success", title: "Settings saved successfully!" })}>
      Save
    </button>
  );
}

describe("Toast", () => {
  it("loads with the first toast, announces politely and dismisses itself after the product's toast duration", async () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    // sonner is not loaded, and no region is rendered, before the first toast.
    expect(screen.queryByRole("region", { name: "Notifications" })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    const region = await screen.findByRole("region", { name: "Notifications" });
    expect(region).toHaveAttribute("aria-live", "polite");
    expect(await within(region).findByText("Settings saved successfully!")).toBeInTheDocument();

    // The next toast, timed: still shown just before TOAST_DURATION_MS, gone once it has passed (and
    // sonner's short exit animation has run).
    vi.useFakeTimers();
    act(() => screen.getByRole("button", { name: "Save" }).click());
    act(() => vi.advanceTimersByTime(0));
    expect(within(region).getAllByText("Settings saved successfully!")).toHaveLength(2);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(within(region).getAllByText("Settings saved successfully!")).toHaveLength(2);
    act(() => vi.advanceTimersByTime(1 + 500));
    expect(within(region).getAllByText("Settings saved successfully!")).toHaveLength(1);
  });

  it("closes a toast with its dismiss button", async () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await userEvent.click(await screen.findByRole("button", { name: "Dismiss notification" }));
    await waitFor(() => expect(screen.queryByText("Settings saved successfully!")).not.toBeInTheDocument());
  });
});
