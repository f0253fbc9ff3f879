import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RunAiUsageCard } from "./run-ai-usage";

describe("the run page's AI section", () => {
  it("shows the outcome, model, tokens and cost", () => {
    render(
      <RunAiUsageCard
        ai={{
          outcome: "reviewed",
          model: "gpt-4o-mini",
          inputTokens: 12_000,
          outputTokens: 300,
          costMicros: 27_000,
          note: null,
        }}
      />,
    );
    const section = screen.getByRole("region", { name: "AI review" });
    expect(section).toHaveTextContent("Reviewed");
    expect(section).toHaveTextContent("gpt-4o-mini");
    expect(section).toHaveTextContent("12,000 in, 300 out");
    expect(section).toHaveTextContent("$0.0270");
  });

  it("says why the pass did not run and that an unpriced model's cost is unknown", () => {
    render(
      <RunAiUsageCard
        ai={{
          outcome: "failed",
          model: "llama3.1",
          inputTokens: 5_000,
          outputTokens: 0,
          costMicros: null,
          note: "the model did not answer in time",
        }}
      />,
    );
    const section = screen.getByRole("region", { name: "AI review" });
    expect(section).toHaveTextContent("Did not run");
    expect(section).toHaveTextContent("Unknown");
    expect(section).toHaveTextContent("the model did not answer in time");
  });
});
