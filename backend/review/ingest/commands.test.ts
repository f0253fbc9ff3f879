import { describe, expect, it } from "vitest";
import { botHandle, parseBotCommand } from "./commands.ts";

describe("botHandle", () => {
  it("follows the product name", () => {
    expect(botHandle("Argus")).toBe("argus");
    expect(botHandle("Acme Review Bot")).toBe("acme-review-bot");
    expect(botHandle("  ~Zed.io~ ")).toBe("zed-io");
  });
});

describe("parseBotCommand", () => {
  it("reads each command, in any case and spacing", () => {
    expect(parseBotCommand("@argus review", "Argus")).toBe("review");
    expect(parseBotCommand("@Argus   Full    Review", "Argus")).toBe("full review");
    expect(parseBotCommand("@argus pause", "Argus")).toBe("pause");
    expect(parseBotCommand("  @argus resume  ", "Argus")).toBe("resume");
    expect(parseBotCommand("@ARGUS HELP", "Argus")).toBe("help");
  });

  it("finds the command on any line of a longer comment", () => {
    expect(parseBotCommand("Thanks for the fixes!\r\n\r\n@argus full review\nCheers", "Argus")).toBe(
      "full review",
    );
  });

  it("uses the handle of the configured product name", () => {
    expect(parseBotCommand("@acme-review review", "Acme Review")).toBe("review");
    expect(parseBotCommand("@argus review", "Acme Review")).toBeUndefined();
  });

  it("ignores mentions that are not a command line", () => {
    for (const body of [
      "",
      "@argus",
      "@argus reviews",
      "@argus review please",
      "please @argus review",
      "> @argus review",
      "@argus-bot review",
      "@argus_x review",
      "@argusreview",
      "```\n@argus review\n```",
      "~~~\n@argus pause\n~~~",
    ]) {
      expect(parseBotCommand(body, "Argus"), body).toBeUndefined();
    }
  });

  it("reads a command after a closed code block", () => {
    expect(parseBotCommand("```\n@argus pause\n```\n@argus resume", "Argus")).toBe("resume");
  });
});
