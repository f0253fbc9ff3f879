import { describe, expect, it } from "vitest";
import { timelineOf } from "./decision-timeline.server";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, 0, ms)).toISOString();

describe("timelineOf", () => {
  it("names steps and outcomes in words, and times each step from the one before, when it began", () => {
    const steps = timelineOf([
      { step: "run", outcome: "started", detail: {}, at: at(0) },
      { step: "triage.seat", outcome: "skip", detail: { reason: "no seat" }, at: at(40) },
      { step: "resolve", outcome: "resolved", detail: { fixed: 1, resolved: 1 }, at: at(70) },
      { step: "check", outcome: "completed", detail: { conclusion: "success" }, at: at(80) },
      { step: "run", outcome: "skipped", detail: {}, at: at(100) },
    ]);
    expect(
      steps.map(({ title, outcome, tone, durationMs }) => ({ title, outcome, tone, durationMs })),
    ).toEqual([
      { title: "Run", outcome: "Started", tone: "neutral", durationMs: null },
      { title: "Check: author's seat", outcome: "Not reviewed", tone: "warning", durationMs: 40 },
      { title: "Fixed findings' comments", outcome: "Resolved", tone: "success", durationMs: 30 },
      { title: "Status on the pull request", outcome: "Completed", tone: "success", durationMs: 10 },
      { title: "Run", outcome: "Skipped", tone: "warning", durationMs: 20 },
    ]);
    expect(steps[1]?.details).toEqual([{ name: "reason", value: "no seat" }]);
  });

  it("shows a step or outcome it has no words for as it is", () => {
    const [step] = timelineOf([
      {
        step: "triage.new_rule",
        outcome: "weighed",
        detail: { files_left: ["a.ts", "b.ts"], limits: { max: 3 } },
        at: at(0),
      },
    ]);
    expect(step).toMatchObject({
      title: "Check: new rule",
      outcome: "weighed",
      tone: "neutral",
      durationMs: null,
    });
    expect(step?.details).toEqual([
      { name: "files left", value: "a.ts, b.ts" },
      { name: "limits", value: '{"max":3}' },
    ]);
  });
});
