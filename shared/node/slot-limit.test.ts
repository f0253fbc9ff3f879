import { describe, expect, it } from "vitest";
import { slotLimit } from "./slot-limit.ts";

describe("slotLimit", () => {
  it("gives each key up to the limit, and a slot again once one is given back", () => {
    const slots = slotLimit(2);
    const first = slots.take("a");
    expect(first).toBeTypeOf("function");
    expect(slots.take("a")).toBeTypeOf("function");
    expect(slots.take("a")).toBeUndefined();
    expect(slots.take("b")).toBeTypeOf("function");
    first?.();
    expect(slots.taken("a")).toBe(1);
    expect(slots.take("a")).toBeTypeOf("function");
    expect(slots.take("a")).toBeUndefined();
  });

  it("counts a slot given back twice once", () => {
    const slots = slotLimit(1);
    const release = slots.take("a");
    const other = slots.take("b");
    release?.();
    release?.();
    expect(slots.taken("a")).toBe(0);
    expect(slots.take("a")).toBeTypeOf("function");
    expect(slots.take("a")).toBeUndefined();
    other?.();
    expect(slots.taken("b")).toBe(0);
  });
});
