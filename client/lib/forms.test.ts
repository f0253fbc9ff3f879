import { describe, expect, it } from "vitest";
import { email, matches, minLength, required, VALIDATION } from "../../shared/validation.ts";
import { rulesResolver } from "./forms";

type Values = { email: string; password: string; confirm: string };
const resolver = rulesResolver<Values>({
  email: [required, email],
  password: [required, minLength(8)],
  confirm: (values) => [required, matches(values.password)],
});
const resolve = (values: Values) =>
  resolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe("rulesResolver", () => {
  it("answers each failing field's first message, with no values", async () => {
    const result = await resolve({ email: "nope", password: "short", confirm: "other" });
    expect(result.values).toEqual({});
    expect(result.errors.email?.message).toBe(VALIDATION.email);
    expect(result.errors.password?.message).toBe(VALIDATION.minLength(8));
    expect(result.errors.confirm?.message).toBe(VALIDATION.passwordsDoNotMatch);
  });

  it("answers the values when every rule passes, cross-field rules included", async () => {
    const values = { email: "ada@example.com", password: "long enough", confirm: "long enough" };
    expect(await resolve(values)).toEqual({ values, errors: {} });
  });
});
