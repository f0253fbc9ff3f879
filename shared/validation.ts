/**
 * The rules of the account forms (sign-in, sign-up, password reset, name edits), shared by the
 * browser's forms and by the backend's schemas (shared/contract/accounts.ts), so both refuse
 * the same values with the same messages.
 */
import { LOGIN_PASSWORD_MIN, NAME_MIN, STRONG_PASSWORD_MAX, STRONG_PASSWORD_MIN } from "./constants.ts";

/** What the rules below answer when a value breaks them. */
export const VALIDATION = {
  required: "This field is required",
  minLength: (n: number) => `Must be at least ${n} characters`,
  email: "Please enter a valid email address",
  pattern: "Please enter a valid value",
  strongPassword:
    "Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character.",
  passwordTooLong: "Password must be lower than 128 characters.",
  passwordForbiddenWord: (word: string) => `Password must not contain the word "${word}".`,
  passwordsDoNotMatch: "Passwords do not match",
} as const;

export type Rule = (value: string) => string | undefined;

/** A simple e-mail pattern: something@something.tld, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const required: Rule = (value) => (value.trim() === "" ? VALIDATION.required : undefined);

export const minLength =
  (n: number): Rule =>
  (value) =>
    value.length < n ? VALIDATION.minLength(n) : undefined;

/** For names: surrounding spaces do not count (the backend trims them away). */
export const minTrimmedLength =
  (n: number): Rule =>
  (value) =>
    value.trim().length < n ? VALIDATION.minLength(n) : undefined;

export const email: Rule = (value) => (EMAIL_PATTERN.test(value.trim()) ? undefined : VALIDATION.email);

/** Empty values pass every rule but `required`, so optional fields can share rule lists. */
export function validateField(value: string, rules: readonly Rule[]): string | undefined {
  for (const rule of rules) {
    if (rule !== required && value === "") continue;
    const message = rule(value);
    if (message) return message;
  }
  return undefined;
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export function hasErrors(errors: FieldErrors<string>): boolean {
  return Object.values(errors).some(Boolean);
}

/** Validates every field of a form against its rule list; only failing fields appear. */
export function validateForm<K extends string>(
  values: Record<K, string>,
  rules: Record<K, readonly Rule[]>,
): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const key of Object.keys(rules) as K[]) {
    const message = validateField(values[key] ?? "", rules[key]);
    if (message) errors[key] = message;
  }
  return errors;
}

export const LOGIN_RULES = {
  email: [required, email],
  password: [required, minLength(LOGIN_PASSWORD_MIN)],
} as const satisfies Record<string, readonly Rule[]>;

export type LoginField = keyof typeof LOGIN_RULES;

export type LoginValues = Record<LoginField, string>;

export function validateLogin(values: LoginValues): FieldErrors<LoginField> {
  return validateForm(values, LOGIN_RULES);
}

export const FORGOT_PASSWORD_RULES = {
  email: [required, email],
} as const satisfies Record<string, readonly Rule[]>;

/**
 * The reset and signup password rule: 8 to 128 characters, upper and lower case, a digit and a
 * special character, and none of the standalone words password, admin or user. Each failure names
 * its own rule, the forbidden word included.
 */
const FORBIDDEN_PASSWORD_WORDS = /\b(password|admin|user)\b/i;

export const strongPassword: Rule = (value) => {
  if (value.length < STRONG_PASSWORD_MIN) return VALIDATION.minLength(STRONG_PASSWORD_MIN);
  if (value.length > STRONG_PASSWORD_MAX) return VALIDATION.passwordTooLong;
  const complex =
    /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value) && /[^A-Za-z0-9]/.test(value);
  if (!complex) return VALIDATION.strongPassword;
  const forbidden = FORBIDDEN_PASSWORD_WORDS.exec(value);
  if (forbidden) return VALIDATION.passwordForbiddenWord((forbidden[1] ?? "").toLowerCase());
  return undefined;
};

/** Confirmation must equal the password it confirms. */
export const matches =
  (other: string): Rule =>
  (value) =>
    value === other ? undefined : VALIDATION.passwordsDoNotMatch;

/** docs/product.md#signup-form */
export const SIGNUP_RULES = {
  name: [required, minTrimmedLength(NAME_MIN)],
  email: [required, email],
  company: [required, minTrimmedLength(NAME_MIN)],
  source: [required],
  password: [required, strongPassword],
} as const satisfies Record<string, readonly Rule[]>;

export type SignupValues = Record<keyof typeof SIGNUP_RULES, string>;

/** docs/product.md#reset-password: a strong new password, confirmed. */
export const RESET_PASSWORD_RULES = {
  password: [required, strongPassword],
  confirmPassword: (values: { password: string }) => [required, matches(values.password)],
} as const;

export type ResetPasswordValues = Record<keyof typeof RESET_PASSWORD_RULES, string>;

/** The user and organisation name edit dialogs; the input itself stops at EDITABLE_NAME_MAX. */
export const NAME_EDIT_RULES = {
  name: [required],
} as const satisfies Record<string, readonly Rule[]>;
