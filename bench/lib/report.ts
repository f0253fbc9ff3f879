/**
 * The benchmark's report: every figure and ratio with its target and verdict, as Markdown. It goes
 * to the terminal and replaces the generated part of bench/README.md (between the markers), leaving
 * the hand-written rest (the review benchmarks) as it is.
 */
import { type Target, verdict } from "./targets.ts";

export const REPORT_START = "<!-- npm run bench: generated from here -->";
export const REPORT_END = "<!-- npm run bench: generated up to here -->";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  loadAverage: number[];
}

export interface Table {
  headers: string[];
  rows: string[][];
}

export interface Check {
  figure: string;
  value: number;
  /** How the value is written: "×" (ratio), "ms", "MB", "MB/min", "" (a score). */
  unit: "×" | "ms" | "MB" | "MB/min" | "kB" | "";
  target: Target;
}

export interface ReportSection {
  title: string;
  intro?: string;
  tables: Table[];
  checks: Check[];
  notes?: string[];
}

export interface BenchReport {
  date: string;
  commit: string;
  machine: Machine;
  /** One paragraph each: how the figures were taken. */
  method: string[];
  sections: ReportSection[];
  notes: string[];
}

const DECIMALS: Record<Check["unit"], number> = { "×": 2, ms: 2, MB: 0, "MB/min": 2, kB: 1, "": 0 };

export function formatValue(value: number, unit: Check["unit"]): string {
  if (!Number.isFinite(value)) return "n/a";
  const number = value.toFixed(DECIMALS[unit]);
  return unit === "" ? number : unit === "×" ? `${number}×` : `${number} ${unit}`;
}

function table({ headers, rows }: Table): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

export function checksTable(checks: Check[]): string {
  return table({
    headers: ["figure", "value", "target", "verdict"],
    rows: checks.map((check) => [
      check.figure,
      formatValue(check.value, check.unit),
      check.target.label,
      verdict(check.value, check.target),
    ]),
  });
}

export function renderReport(report: BenchReport): string {
  const { machine } = report;
  const all = report.sections.flatMap((section) => section.checks);
  const failed = all.filter((check) => verdict(check.value, check.target) === "fail").length;
  const missing = all.filter((check) => verdict(check.value, check.target) === "n/a").length;
  const parts = [
    REPORT_START,
    "## Performance (`npm run bench`)",
    [
      `Taken ${report.date} at commit \`${report.commit}\` on ${machine.cpu}, ${machine.cores} cores,`,
      `${machine.memoryGb.toFixed(1)} GB of memory (load average at the start`,
      `${machine.loadAverage.map((load) => load.toFixed(2)).join(", ")}).`,
      `${all.length - failed - missing} of ${all.length} targets met, ${failed} missed${missing ? `, ${missing} not measured` : ""}.`,
    ].join(" "),
    "### Method",
    ...report.method,
  ];
  for (const section of report.sections) {
    parts.push(`### ${section.title}`);
    if (section.intro) parts.push(section.intro);
    for (const t of section.tables) parts.push(table(t));
    if (section.checks.length > 0) parts.push(checksTable(section.checks));
    if (section.notes?.length) parts.push(section.notes.map((note) => `- ${note}`).join("\n"));
  }
  if (report.notes.length > 0) {
    parts.push("### Notes", report.notes.map((note) => `- ${note}`).join("\n"));
  }
  parts.push(REPORT_END);
  return `${parts.join("\n\n")}\n`;
}

/**
 * `readme` with its generated part replaced by `generated`; without markers yet, the generated part
 * goes right after the title.
 */
export function replaceGenerated(readme: string, generated: string): string {
  const start = readme.indexOf(REPORT_START);
  const end = readme.indexOf(REPORT_END);
  if (start !== -1 && end > start) {
    const after = readme.slice(end + REPORT_END.length).replace(/^\n/, "");
    return `${readme.slice(0, start)}${generated}${after}`;
  }
  const titleEnd = readme.indexOf("\n", readme.indexOf("# ")) + 1;
  return `${readme.slice(0, titleEnd)}\n${generated}\n${readme.slice(titleEnd).replace(/^\n+/, "")}`;
}
