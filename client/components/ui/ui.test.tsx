import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TOAST_DURATION_MS } from "../../../shared/constants.ts";
import { Alert, Button, IconButton, TextField, ToastProvider, useToast } from ".";

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
  it("announces politely and dismisses itself after the product's toast duration", () => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    const region = screen.getByRole("region", { name: "Notifications" });
    expect(region).toHaveAttribute("aria-live", "polite");

    act(() => screen.getByRole("button", { name: "Save" }).click());
    expect(region).toHaveTextContent("Settings saved successfully!");

    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(region).toHaveTextContent("Settings saved successfully!");
    act(() => vi.advanceTimersByTime(1));
    expect(region).not.toHaveTextContent("Settings saved successfully!");
  });
});
