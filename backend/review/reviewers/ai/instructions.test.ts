import { describe, expect, it } from "vitest";
import { instructionsFileName, parseInstructionsFile, repositoryInstructions } from "./instructions.ts";

describe("the repository's instructions file", () => {
  it("is named after the product, as the bot's handle is", () => {
    expect(instructionsFileName("Argus")).toBe(".argus.yaml");
    expect(instructionsFileName("Code Lens")).toBe(".code-lens.yaml");
  });

  it("parses instructions and path instructions", () => {
    const parsed = parseInstructionsFile(
      [
        "instructions: Money is in integer cents.",
        "path_instructions:",
        "  - path: src/db/**",
        "    instructions: Every query must be parameterised.",
      ].join("\n"),
    );
    expect(parsed).toEqual({
      ok: true,
      file: {
        instructions: "Money is in integer cents.",
        path_instructions: [{ path: "src/db/**", instructions: "Every query must be parameterised." }],
      },
    });
  });

  it("takes an empty file as saying nothing", () => {
    expect(parseInstructionsFile("# nothing yet\n")).toEqual({ ok: true, file: {} });
  });

  it("rejects invalid YAML, unknown keys, wrong types and sizes over the bounds, saying what is wrong", () => {
    expect(parseInstructionsFile("instructions: [unclosed")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not valid YAML/),
    });
    expect(parseInstructionsFile("instruction: typo")).toMatchObject({ ok: false });
    expect(parseInstructionsFile("path_instructions: src/**")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^path_instructions/),
    });
    expect(parseInstructionsFile(`instructions: ${"x".repeat(4001)}`)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^instructions/),
    });
    expect(parseInstructionsFile("- a list\n- not a mapping")).toMatchObject({ ok: false });
  });

  it("applies path instructions to the diff's files their glob matches, and leaves the others out", () => {
    const instructions = repositoryInstructions(
      "  Be strict about SQL.  ",
      {
        instructions: "Money is in cents.",
        path_instructions: [
          { path: "src/db/**", instructions: "Queries are parameterised." },
          { path: "*.py", instructions: "Python 3.12." },
        ],
      },
      ["src/db/users.ts", "src/app.ts"],
    );
    expect(instructions).toEqual({
      general: ["Be strict about SQL.", "Money is in cents."],
      byPath: [{ path: "src/db/**", instructions: "Queries are parameterised.", files: ["src/db/users.ts"] }],
    });
    expect(repositoryInstructions("", undefined, ["a.ts"])).toEqual({ general: [], byPath: [] });
  });
});
