import { describe, expect, it } from "vitest";
import { capLength, tidyName } from "./names.ts";

describe("tidyName", () => {
  it("collapses white space and control characters, drops bidirectional controls, trims", () => {
    expect(tidyName("  Ada \n\t Lovelace\u0000 ", 100)).toBe("Ada Lovelace");
    expect(tidyName("evil\u202Egnp.exe", 100)).toBe("evilgnp.exe");
    expect(tidyName(" \n ", 100)).toBeUndefined();
    expect(tidyName(undefined, 100)).toBeUndefined();
  });

  it("caps the length without splitting a character", () => {
    expect(tidyName("x".repeat(300), 100)).toBe("x".repeat(100));
    expect(capLength(`${"x".repeat(99)}😀`, 100)).toBe("x".repeat(99));
    expect(capLength("😀😀", 4)).toBe("😀😀");
    expect(tidyName(`${"x".repeat(99)} yz`, 100)).toBe("x".repeat(99));
  });
});
