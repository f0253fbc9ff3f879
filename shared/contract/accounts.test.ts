import * as v from "valibot";
import { describe, expect, it } from "vitest";
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
import { VALIDATION } from "../validation.ts";
import {
  emailRequestSchema,
  githubSignupRequestSchema,
  loginRequestSchema,
  nameUpdateRequestSchema,
  providerLoginRequestSchema,
  resetPasswordRequestSchema,
  sessionClaimsSchema,
  signupRequestSchema,
} from "./accounts.ts";
import { aiModelRequestSchema } from "./ai-model.ts";
import {
  cancelSubscriptionRequestSchema,
  checkoutRequestSchema,
  orgRequestSchema,
  updateSubscriptionRequestSchema,
} from "./billing.ts";
import { githubSetupRequestSchema, integrationSetupRequestSchema } from "./code-hosts.ts";
import { addContributorRequestSchema, seatRequestSchema } from "./contributors.ts";
import {
  settingsQuerySchema,
  settingsUpdateQuerySchema,
  settingsUpdateRequestSchema,
  settingTemplatesQuerySchema,
} from "./settings.ts";

/** The parts of a valibot schema the walks below read (a pipe keeps its first schema's type). */
interface SchemaNode {
  type: string;
  pipe?: readonly { type: string; requirement?: unknown }[];
  wrapped?: SchemaNode;
  item?: SchemaNode;
  key?: SchemaNode;
  value?: SchemaNode;
  options?: readonly SchemaNode[];
  entries?: Record<string, SchemaNode>;
}

const node = (schema: v.GenericSchema): SchemaNode => schema as unknown as SchemaNode;

/** The smallest maximum length of a pipe's checks, or null for none. */
function maxLength(schema: SchemaNode): number | null {
  const maxima = (schema.pipe ?? [])
    .filter((action) => action.type === "max_length")
    .map((action) => action.requirement as number);
  return maxima.length ? Math.min(...maxima) : null;
}

/** The longest string each field of an object schema accepts (null: unbounded), or "not a string". */
function stringBounds(schema: v.GenericSchema): Record<string, number | null | "not a string"> {
  const bounds: Record<string, number | null | "not a string"> = {};
  for (const [field, value] of Object.entries(node(schema).entries ?? {})) {
    const inner = value.type === "optional" && value.wrapped ? value.wrapped : value;
    bounds[field] = inner.type === "string" ? maxLength(inner) : "not a string";
  }
  return bounds;
}

/** Paths of the strings a schema accepts without a maximum length, searched through objects and arrays. */
function unboundedStrings(schema: SchemaNode, at = "$"): string[] {
  if (schema.wrapped) return unboundedStrings(schema.wrapped, at); // optional, nullable, nullish...
  if (schema.type === "array" && schema.item) {
    const unboundedArray = maxLength(schema) === null ? [`${at}[]`] : [];
    return [...unboundedArray, ...unboundedStrings(schema.item, `${at}[]`)];
  }
  if (schema.type === "record" && schema.key && schema.value) {
    return [...unboundedStrings(schema.key, `${at}<key>`), ...unboundedStrings(schema.value, `${at}<value>`)];
  }
  if (schema.options && (schema.type === "union" || schema.type === "variant")) {
    return schema.options.flatMap((option) => unboundedStrings(option, at));
  }
  if (schema.entries) {
    return Object.entries(schema.entries).flatMap(([key, value]) => unboundedStrings(value, `${at}.${key}`));
  }
  if (schema.type === "string") return maxLength(schema) === null ? [at] : [];
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
    expect(unboundedStrings(node(schema))).toEqual([]);
  });

  it("finds an unbounded string inside a record or a union", () => {
    expect(unboundedStrings(node(v.record(v.string(), v.pipe(v.string(), v.maxLength(1)))))).toEqual([
      "$<key>",
    ]);
    expect(unboundedStrings(node(v.object({ a: v.union([v.number(), v.string()]) })))).toEqual(["$.a"]);
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
    const avatar = (avatar_url: string) => v.safeParse(loginRequestSchema, { ...base, avatar_url }).success;
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
    const short = v.safeParse(signupRequestSchema, { ...signup, name: " a " });
    expect(short.success).toBe(false);
    expect(short.issues?.[0]?.message).toBe(VALIDATION.minLength(NAME_MIN));
    expect(v.parse(signupRequestSchema, { ...signup, company: "  Acme  " }).company).toBe("Acme");
  });

  it("refuses a weak new password with the strong-password message", () => {
    const weak = v.safeParse(resetPasswordRequestSchema, { oobCode: "code", newPassword: "abcdefgh" });
    expect(weak.issues?.map((issue) => issue.message)).toEqual([VALIDATION.strongPassword]);
  });

  it("names the forbidden word of an otherwise strong new password", () => {
    const banned = v.safeParse(resetPasswordRequestSchema, {
      oobCode: "code",
      newPassword: "Strong-9X admin",
    });
    expect(banned.issues?.map((issue) => issue.message)).toEqual([VALIDATION.passwordForbiddenWord("admin")]);
  });
});
