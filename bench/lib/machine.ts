/** What the figures were taken on: the machine and the commit. */
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import type { Machine } from "./report.ts";

export function machine(): Machine {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? "unknown CPU",
    cores: cores.length,
    memoryGb: totalmem() / 1024 ** 3,
    loadAverage: loadavg(),
  };
}

/** The short commit, marked when the work tree has changes. */
export function commit(): string {
  const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
  const head = git("rev-parse", "--short", "HEAD");
  return git("status", "--porcelain", "--untracked-files=no") ? `${head} (with changes)` : head;
}
