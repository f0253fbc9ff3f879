import { describe, expect, it } from "vitest";
import {
  type BenchReport,
  formatValue,
  REPORT_END,
  REPORT_START,
  renderReport,
  replaceGenerated,
} from "./report.ts";
import { TARGETS } from "./targets.ts";

const report: BenchReport = {
  date: "2026-11-23",
  commit: "abc1234",
  machine: { cpu: "Test CPU", cores: 2, memoryGb: 8, loadAverage: [1, 2, 3] },
  method: ["How it was measured."],
  sections: [
    {
      title: "Proxy",
      intro: "The same call three ways.",
      tables: [{ headers: ["scenario", "req/s"], rows: [["direct", "1000"]] }],
      checks: [
        { figure: "gateway / direct", value: 0.64, unit: "×", target: TARGETS.proxyVsDirect },
        { figure: "gateway / nginx", value: Number.NaN, unit: "×", target: TARGETS.proxyVsNginx },
        { figure: "added p50", value: 2.5, unit: "ms", target: TARGETS.addedP50LowLoadMs },
      ],
      notes: ["gateway adds 1 ms"],
    },
  ],
  notes: ["The machine is shared."],
};

describe("renderReport", () => {
  const text = renderReport(report);

  it("names the machine, the date and the commit", () => {
    expect(text).toContain("Taken 2026-11-23 at commit `abc1234` on Test CPU, 2 cores, 8.0 GB of memory");
  });
  it("writes each figure with its target and verdict", () => {
    expect(text).toContain("| gateway / direct | 0.64× | ≥ 0.60× direct | pass |");
    expect(text).toContain("| added p50 | 2.50 ms | < 1 ms | fail |");
    expect(text).toContain("| gateway / nginx | n/a | ≥ 0.70× nginx | n/a |");
  });
  it("counts the targets met, missed and not measured", () => {
    expect(text).toContain("1 of 3 targets met, 1 missed, 1 not measured.");
  });
  it("keeps the tables, the method and the notes", () => {
    expect(text).toContain("| scenario | req/s |\n| --- | --- |\n| direct | 1000 |");
    expect(text).toContain("### Method\n\nHow it was measured.");
    expect(text).toContain("- gateway adds 1 ms");
    expect(text).toContain("### Notes\n\n- The machine is shared.");
  });
  it("sits between the markers", () => {
    expect(text.startsWith(REPORT_START)).toBe(true);
    expect(text.trimEnd().endsWith(REPORT_END)).toBe(true);
  });
});

describe("formatValue", () => {
  it("writes each unit its way", () => {
    expect(formatValue(0.456, "×")).toBe("0.46×");
    expect(formatValue(212.4, "MB")).toBe("212 MB");
    expect(formatValue(0.123, "MB/min")).toBe("0.12 MB/min");
    expect(formatValue(97, "")).toBe("97");
  });
});

describe("replaceGenerated", () => {
  const generated = `${REPORT_START}\nnew figures\n${REPORT_END}\n`;

  it("replaces the part between the markers and keeps the rest", () => {
    const readme = `# Benchmarks\n\n${REPORT_START}\nold figures\n${REPORT_END}\n\n## Built-in reviewer\n\ntext\n`;
    expect(replaceGenerated(readme, generated)).toBe(
      `# Benchmarks\n\n${REPORT_START}\nnew figures\n${REPORT_END}\n\n## Built-in reviewer\n\ntext\n`,
    );
  });
  it("puts the first report right after the title", () => {
    const readme = "# Benchmarks\n\n## Built-in reviewer\n\ntext\n";
    expect(replaceGenerated(readme, generated)).toBe(
      `# Benchmarks\n\n${generated}\n## Built-in reviewer\n\ntext\n`,
    );
  });
});
