import { describe, expect, it } from "vitest";
import {
  email,
  FORGOT_PASSWORD_RULES,
  matches,
  minLength,
  required,
  SIGNUP_RULES,
  strongPassword,
  VALIDATION,
  validateField,
  validateForm,
  validateLogin,
} from "./validation.ts";

describe("generic rules", () => {
  it("required rejects empty and blank values with its message", () => {
    expect(required("")).toBe("This field is required");
    expect(required("   ")).toBe(VALIDATION.required);
    expect(required("x")).toBeUndefined();
  });

  it("minLength names the limit", () => {
    expect(minLength(6)("abcde")).toBe("Must be at least 6 characters");
    expect(minLength(6)("abcdef")).toBeUndefined();
  });

  it("email accepts simple addresses and rejects the rest", () => {
    expect(email("ada@example.com")).toBeUndefined();
    for (const bad of ["ada", "ada@", "ada@example", "a da@example.com", "@example.com"]) {
      expect(email(bad)).toBe("Please enter a valid email address");
    }
  });

  it("validateField stops at the first failing rule and skips the others for empty optional values", () => {
    expect(validateField("", [required, minLength(6)])).toBe(VALIDATION.required);
    expect(validateField("", [minLength(6)])).toBeUndefined();
    expect(validateField("abc", [required, minLength(6)])).toBe(VALIDATION.minLength(6));
  });
});

describe("login rules", () => {
  it("requires both fields", () => {
    expect(validateLogin({ email: "", password: "" })).toEqual({
      email: VALIDATION.required,
      password: VALIDATION.required,
    });
  });

  it("requires a valid email and a password of at least 6 characters", () => {
    expect(validateLogin({ email: "nope", password: "12345" })).toEqual({
      email: VALIDATION.email,
      password: "Must be at least 6 characters",
    });
  });

  it("passes a valid pair", () => {
    expect(validateLogin({ email: "ada@example.com", password: "123456" })).toEqual({});
  });

  it("forgot password needs a valid email", () => {
    expect(validateForm({ email: "x" }, FORGOT_PASSWORD_RULES)).toEqual({ email: VALIDATION.email });
  });
});

describe("strong password (reset and signup)", () => {
  it("enforces 8 to 128 characters", () => {
    expect(strongPassword("Ab1!xyz")).toBe(VALIDATION.minLength(8));
    expect(strongPassword(`Ab1!${"x".repeat(125)}`)).toBe("Password must be lower than 128 characters.");
  });

  it("needs upper, lower, digit and special character", () => {
    expect(strongPassword("abcdefg1!")).toBe(VALIDATION.strongPassword);
    expect(strongPassword("ABCDEFG1!")).toBe(VALIDATION.strongPassword);
    expect(strongPassword("Abcdefgh!")).toBe(VALIDATION.strongPassword);
    expect(strongPassword("Abcdefgh1")).toBe(VALIDATION.strongPassword);
    expect(strongPassword("Abcdefg1!")).toBeUndefined();
  });

  it("refuses the standalone words password, admin and user", () => {
    expect(strongPassword("My-admin-9X")).toBe('Password must not contain the word "admin".');
    expect(strongPassword("Password 1!")).toBe('Password must not contain the word "password".');
    expect(strongPassword("Strong-9X user")).toBe(VALIDATION.passwordForbiddenWord("user"));
    expect(strongPassword("Superuser1!")).toBeUndefined();
  });

  it("confirmation must match", () => {
    expect(matches("Abcdefg1!")("Abcdefg1?")).toBe("Passwords do not match");
    expect(matches("Abcdefg1!")("Abcdefg1!")).toBeUndefined();
  });
});

describe("signup rules", () => {
  const valid = {
    name: "Ada",
    email: "ada@example.com",
    company: "Engines",
    source: "search",
    password: "Str0ng-Pass!",
  };

  it("passes a complete form", () => {
    expect(validateForm(valid, SIGNUP_RULES)).toEqual({});
  });

  it("answers each field's first failure", () => {
    expect(
      validateForm({ name: "A", email: "nope", company: "", source: " ", password: "weak" }, SIGNUP_RULES),
    ).toEqual({
      name: VALIDATION.minLength(2),
      email: VALIDATION.email,
      company: VALIDATION.required,
      source: VALIDATION.required,
      password: VALIDATION.minLength(8),
    });
    expect(validateForm({ ...valid, password: "alllowercase1!" }, SIGNUP_RULES)).toEqual({
      password: VALIDATION.strongPassword,
    });
  });
});
