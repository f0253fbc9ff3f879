import { describe, expect, it } from "vitest";
import { addedFile, changedFile, hunk, runAnalyzer } from "../../../../tests/support/review-files.ts";
import { dependenciesAnalyzer } from "./dependencies.ts";

const MANIFEST = `{
  "name": "app",
  "version": "1.2.0",
  "scripts": {
    "build": "tsc"
  },
  "dependencies": {
    "express": "^5.0.0",
    "left-pad": "^1.3.0",
    "zod": "^4.1.0"
  },
  "devDependencies": {
    "typescript": "^5.9.0",
    "vitest": "^4.0.0"
  },
  "engines": {
    "node": ">=22"
  }
}`;

const namesOf = async (...files: Parameters<typeof runAnalyzer>[1]) =>
  (await runAnalyzer(dependenciesAnalyzer, files)).findings.map((finding) => [
    finding.ruleId,
    finding.line,
    finding.quote,
  ]);

describe("dependenciesAnalyzer", () => {
  it("reports entries added to dependency sections of a new package.json, not scripts or engines", async () => {
    expect(await namesOf(addedFile("package.json", MANIFEST.split("\n")))).toEqual([
      ["dependencies/new", 8, '    "express": "^5.0.0",'],
      ["dependencies/new", 9, '    "left-pad": "^1.3.0",'],
      ["dependencies/new", 10, '    "zod": "^4.1.0"'],
      ["dependencies/new", 13, '    "typescript": "^5.9.0",'],
      ["dependencies/new", 14, '    "vitest": "^4.0.0"'],
    ]);
  });

  it("with the content at head, reports a new entry whose section header is outside the hunk", async () => {
    const patch = hunk(
      ['     "express": "^5.0.0",', '+    "left-pad": "^1.3.0",', '     "zod": "^4.1.0"'],
      8,
      8,
    );
    const file = changedFile("web/package.json", patch, { content: MANIFEST });
    expect(await namesOf(file)).toEqual([["dependencies/new", 9, '    "left-pad": "^1.3.0",']]);
  });

  it("does not report a version change or a move between sections", async () => {
    const bump = hunk(['   "dependencies": {', '-    "express": "^4.0.0",', '+    "express": "^5.0.0",'], 7);
    const move = hunk(
      ['   "devDependencies": {', '-    "zod": "^4.1.0",', '+    "typescript": "^5.9.0",'],
      12,
    );
    expect(await namesOf(changedFile("package.json", bump))).toEqual([]);
    const moved = changedFile(
      "package.json",
      `${hunk(['   "dependencies": {', '+    "zod": "^4.1.0",'], 7)}\n${move}`,
    );
    expect((await namesOf(moved)).map(([, line]) => line)).toEqual([13]);
  });

  it("with hunks alone, reports only entries whose section it can see", async () => {
    const visible = hunk(['   "dependencies": {', '+    "left-pad": "^1.3.0",', '     "zod": "^4.1.0"'], 7);
    const hidden = hunk(['     "a": "1",', '+    "b": "2",'], 30);
    expect(await namesOf(changedFile("package.json", `${visible}\n${hidden}`))).toEqual([
      ["dependencies/new", 8, '    "left-pad": "^1.3.0",'],
    ]);
  });

  it("reads only package.json files", async () => {
    expect(await namesOf(addedFile("composer.json", MANIFEST.split("\n")))).toEqual([]);
  });
});
