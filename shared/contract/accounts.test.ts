import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  EMAIL_MAX,
  ID_MAX,
  ID_TOKEN_MAX,
  NAME_MAX,
  NAME_MIN,
  OAUTH_TOKEN_MAX,
  ORG_NAME_MAX,
  URL_MAX,
} from "../constants.ts";
import { VALIDATION } from "./accounts.ts";
import {
  emailRequestSchema,
  githubSignupRequestSchema,
  loginRequestSchema,
  nameUpdateRequestSchema,
  providerLoginRequestSchema,
  resetPasswordRequestSchema,
  sessionClaimsSchema,
  signupRequestSchema,
} from "./accounts-schemas.ts";
import { aiModelRequestSchema } from "./ai-model-schemas.ts";
import {
  cancelSubscriptionRequestSchema,
  checkoutRequestSchema,
  orgRequestSchema,
  updateSubscriptionRequestSchema,
} from "./billing-schemas.ts";
import { githubSetupRequestSchema, integrationSetupRequestSchema } from "./code-hosts-schemas.ts";
import { addContributorRequestSchema, seatRequestSchema } from "./contributors-schemas.ts";
import {
  settingsQuerySchema,
  settingsUpdateQuerySchema,
  settingsUpdateRequestSchema,
  settingTemplatesQuerySchema,
} from "./settings-schemas.ts";

/** The longest string each field of an object schema accepts (null: unbounded), or "not a string". */
function stringBounds(schema: z.ZodObject): Record<string, number | null | "not a string"> {
  const bounds: Record<string, number | null | "not a string"> = {};
  for (const [field, value] of Object.entries(schema.shape)) {
    const inner = value instanceof z.ZodOptional ? value.unwrap() : value;
    bounds[field] = inner.def.type === "string" ? (inner as z.ZodString).maxLength : "not a string";
  }
  return bounds;
}

/** Paths of the strings a schema accepts without a maximum length, searched through objects and arrays. */
function unboundedStrings(schema: z.ZodType, at = "$"): string[] {
  const def = schema.def as { type: string; innerType?: z.ZodType; element?: z.ZodType };
  if (def.type === "optional" || def.type === "nullable")
    return unboundedStrings(def.innerType as z.ZodType, at);
  if (def.type === "array") {
    const array = schema as z.ZodArray;
    const unboundedArray = array.def.checks?.some((check) => check._zod.def.check === "max_length")
      ? []
      : [`${at}[]`];
    return [...unboundedArray, ...unboundedStrings(def.element as z.ZodType, `${at}[]`)];
  }
  if (schema instanceof z.ZodRecord) {
    return [
      ...unboundedStrings(schema.def.keyType as z.ZodType, `${at}<key>`),
      ...unboundedStrings(schema.def.valueType as z.ZodType, `${at}<value>`),
    ];
  }
  if (def.type === "union") {
    return (schema as z.ZodUnion).def.options.flatMap((option) => unboundedStrings(option as z.ZodType, at));
  }
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape).flatMap(([key, value]) =>
      unboundedStrings(value as z.ZodType, `${at}.${key}`),
    );
  }
  if (def.type === "string") return (schema as z.ZodString).maxLength === null ? [at] : [];
  return [];
}

describe("contract bounds", () => {
  it("bounds every string a sign-in request carries", () => {
    expect(stringBounds(loginRequestSchema)).toEqual({
      email: EMAIL_MAX,
      firebase_uid: ID_MAX,
      name: NAME_MAX,
      avatar_url: URL_MAX,
      idToken: ID_TOKEN_MAX,
      oauthAccessToken: OAUTH_TOKEN_MAX,
    });
  });

  it.each([
    ["signup", signupRequestSchema],
    ["GitHub signup", githubSignupRequestSchema],
    ["provider login", providerLoginRequestSchema],
    ["resend and forgot", emailRequestSchema],
    ["reset password", resetPasswordRequestSchema],
    ["name update", nameUpdateRequestSchema],
    ["integration setup", integrationSetupRequestSchema],
    ["GitHub installation setup", githubSetupRequestSchema],
    ["checkout", checkoutRequestSchema],
    ["seat update", updateSubscriptionRequestSchema],
    ["cancel subscription", cancelSubscriptionRequestSchema],
    ["resume and portal", orgRequestSchema],
    ["add contributor", addContributorRequestSchema],
    ["seat assignment", seatRequestSchema],
    ["settings templates query", settingTemplatesQuerySchema],
    ["settings query", settingsQuerySchema],
    ["settings update query", settingsUpdateQuerySchema],
    ["settings update", settingsUpdateRequestSchema],
    ["AI model save and test", aiModelRequestSchema],
  ])("bounds every string of the %s request, nested ones too", (_name, schema) => {
    expect(unboundedStrings(schema)).toEqual([]);
  });

  it("finds an unbounded string inside a record or a union", () => {
    expect(unboundedStrings(z.record(z.string(), z.string().max(1)))).toEqual(["$<key>"]);
    expect(unboundedStrings(z.object({ a: z.union([z.number(), z.string()]) }))).toEqual(["$.a"]);
  });

  it("bounds every string claim of a session token", () => {
    expect(stringBounds(sessionClaimsSchema)).toEqual({
      sub: ID_MAX,
      sid: ID_MAX,
      orgId: ID_MAX,
      email: EMAIL_MAX,
      name: NAME_MAX,
      role: ID_MAX,
      provider: "not a string",
      orgName: ORG_NAME_MAX,
      iat: "not a string",
      exp: "not a string",
      auth_time: "not a string",
    });
    // "<name>'s organization", the name a first sign-in gives an organisation, always fits.
    expect(`${"n".repeat(NAME_MAX)}'s organization`.length).toBeLessThanOrEqual(ORG_NAME_MAX);
  });

  it("accepts only https avatar URLs", () => {
    const base = { email: "a@example.com", firebase_uid: "uid", idToken: "token" };
    const avatar = (avatar_url: string) => loginRequestSchema.safeParse({ ...base, avatar_url }).success;
    expect(avatar("https://avatars.example.com/u/1.png")).toBe(true);
    for (const hostile of [
      "http://example.com/a.png",
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "//example.com/a.png",
      "/relative.png",
      "https://",
    ]) {
      expect(avatar(hostile), hostile).toBe(false);
    }
  });
});

describe("request schemas share the forms' rules", () => {
  const signup = {
    name: "Ada",
    email: "ada@example.com",
    company: "Analytical Engines",
    source: "A friend",
    type: "EMAIL",
    idToken: "token",
  };

  it("refuses what the signup form refuses, with the form's message, and trims what it keeps", () => {
    const short = signupRequestSchema.safeParse({ ...signup, name: " a " });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe(VALIDATION.minLength(NAME_MIN));
    expect(signupRequestSchema.parse({ ...signup, company: "  Acme  " }).company).toBe("Acme");
  });

  it("refuses a weak new password with the strong-password message", () => {
    const weak = resetPasswordRequestSchema.safeParse({ oobCode: "code", newPassword: "abcdefgh" });
    expect(weak.error?.issues.map((issue) => issue.message)).toEqual([VALIDATION.strongPassword]);
  });

  it("names the forbidden word of an otherwise strong new password", () => {
    const banned = resetPasswordRequestSchema.safeParse({ oobCode: "code", newPassword: "Strong-9X admin" });
    expect(banned.error?.issues.map((issue) => issue.message)).toEqual([
      VALIDATION.passwordForbiddenWord("admin"),
    ]);
  });
});
