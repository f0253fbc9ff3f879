import request from "supertest";
import * as v from "valibot";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../shared/contract/common.ts";
import type { SettingsData } from "../../shared/contract/settings.ts";
import {
  type SettingsUpdateResponse,
  settingsResponseSchema,
  settingsUpdateResponseSchema,
  settingTemplatesResponseSchema,
} from "../../shared/contract/settings.ts";
import {
  DEFAULT_SETTINGS_PROVIDER,
  SETTINGS_CATALOGUE,
  SETTINGS_PROVIDERS,
} from "../../shared/settings-catalogue.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { bearerCalls, TEST_BACKEND_ENV, testBackends } from "../../tests/support/test-backend.ts";
import { type Backend, createBackend } from "../app.ts";
import { catalogueEntry } from "../code-hosts/catalogue.ts";
import { loadConfig } from "../config.ts";
import { recordTeamRules } from "../review/reviewers/builtin/rules/team-rules-store.ts";
import {
  effectiveSettings,
  organizationEffectiveSettings,
  RepositoryNotFoundError,
} from "../settings/effective.ts";
import { checkCategoryValues } from "../settings/resolve.ts";

/** Every template default, category → key → value. */
const DEFAULTS = Object.fromEntries(
  SETTINGS_CATALOGUE.map((category) => [
    category.setting_category,
    Object.fromEntries(category.default_value.map((item) => [item.key, item.value])),
  ]),
) as Record<string, Record<string, boolean | string[] | string | number>>;

function defaultsOf(category: string): Record<string, boolean | string[] | string | number> {
  return { ...DEFAULTS[category] };
}

/** Every key of a category as `fill`, then `overrides`. */
function everyKey<T>(category: string, fill: T, overrides: Record<string, T> = {}): Record<string, T> {
  return {
    ...Object.fromEntries(Object.keys(DEFAULTS[category] ?? {}).map((key) => [key, fill])),
    ...overrides,
  };
}

describe("the catalogue", () => {
  it("names code hosts of the integration catalogue in the provider dropdown, GitHub first and default", () => {
    expect(SETTINGS_PROVIDERS.map((provider) => provider.value)).toEqual(["github", "azure-devops"]);
    expect(DEFAULT_SETTINGS_PROVIDER).toBe("github");
    for (const provider of SETTINGS_PROVIDERS) {
      expect(catalogueEntry(provider.value)?.display_name).toBe(provider.label);
    }
  });

  it("has unique snake_case categories and keys, each with a label, a description and a default of its type", () => {
    const categories = SETTINGS_CATALOGUE.map((category) => category.setting_category);
    expect(new Set(categories).size).toBe(categories.length);
    expect(categories).toEqual(
      expect.arrayContaining(["account_preferences", "review_scope", "comment_style"]),
    );
    for (const category of SETTINGS_CATALOGUE) {
      expect(category.setting_category).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(category.description.split("\n").length).toBeGreaterThan(1);
      const keys = category.default_value.map((item) => item.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const item of category.default_value) {
        expect(item.key).toMatch(/^[a-z]+(_[a-z]+)*$/);
        // The default must pass the backend's own check of a saved value.
        expect(checkCategoryValues(category, { [item.key]: item.value })).toEqual({ [item.key]: item.value });
        expect(item.label && item.description).toBeTruthy();
      }
    }
    // docs/product.md#settings: a fresh install reviews every pull request as it opens.
    expect(DEFAULTS.account_preferences?.auto_review).toBe(true);
    expect(DEFAULTS.review_scope).toMatchObject({ ignored_branches: [], ignored_paths: [] });
  });
});

describe.each(TEST_DATABASE_KINDS)("on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  beforeAll(async () => {
    backend = await backends.start();
  });
  afterAll(() => backends.stop());
  const { get, put } = bearerCalls(() => backend.app);

  async function settingsOf(token: string, query: Record<string, string> = {}): Promise<SettingsData> {
    const response = await get(token, `${API_PATHS.settings}?${new URLSearchParams(query)}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return v.parse(settingsResponseSchema, response.body).data;
  }

  async function save(
    token: string,
    category: string,
    value: Record<string, unknown>,
    { repositoryId, integrationName }: { repositoryId?: string; integrationName?: string } = {},
  ): Promise<SettingsUpdateResponse["data"]> {
    const query = integrationName ? `?${new URLSearchParams({ integrationName })}` : "";
    const response = await put(token, `${API_PATHS.settingsCategory(category)}${query}`, {
      value,
      ...(repositoryId ? { repositoryId } : {}),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return v.parse(settingsUpdateResponseSchema, response.body).data;
  }

  async function addRepository(orgId: string, name: string, integrationName = "github"): Promise<string> {
    const row = await backend.db
      .insertInto("projects")
      .values({
        org_id: orgId,
        name,
        integration_key: `${integrationName}-key`,
        integration_name: integrationName,
        integration_type: "git",
        external_link: `https://example.com/${name}`,
        properties: JSON.stringify({ full_name: `acme/${name}` }),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function storedRows() {
    const organization = await backend.db.selectFrom("organization_settings").selectAll().execute();
    const repository = await backend.db.selectFrom("repository_settings").selectAll().execute();
    return { organization, repository };
  }

  describe("GET /api/settings/templates", () => {
    it("answers the active categories with their settings, in the contract's shape", async () => {
      const { token } = await signedInAccount(backend, "templates");
      const response = await get(token, `${API_PATHS.settingsTemplates}?includeInactive=false`);
      expect(response.status).toBe(200);
      const { success, data } = v.parse(settingTemplatesResponseSchema, response.body);
      expect(success).toBe(true);
      expect(data.map((template) => template.setting_category)).toEqual(
        SETTINGS_CATALOGUE.filter((category) => category.is_active).map(
          (category) => category.setting_category,
        ),
      );
      const preferences = data.find((template) => template.setting_category === "account_preferences");
      expect(preferences?.description.split("\n")[0]).toBe("When reviews run.");
      expect(preferences?.default_value[0]).toEqual({
        key: "auto_review",
        type: "boolean",
        label: "Auto review",
        value: true,
        description: "Review every pull request automatically as soon as it is opened.",
      });

      const all = await get(token, `${API_PATHS.settingsTemplates}?includeInactive=true`);
      expect(v.parse(settingTemplatesResponseSchema, all.body).data).toHaveLength(SETTINGS_CATALOGUE.length);
      expect((await get(token, `${API_PATHS.settingsTemplates}?includeInactive=maybe`)).status).toBe(400);
    });

    it("needs a session", async () => {
      expect((await request(backend.app).get(API_PATHS.settingsTemplates)).status).toBe(401);
      expect((await request(backend.app).get(API_PATHS.settings)).status).toBe(401);
      expect((await request(backend.app).put(API_PATHS.settingsCategory("review_scope"))).status).toBe(401);
    });
  });

  describe("organisation values", () => {
    it("start at the defaults, for GitHub unless another code host is named", async () => {
      const { token } = await signedInAccount(backend, "defaults");
      const data = await settingsOf(token);
      expect(data.level).toBe("organization");
      expect(data.integrationName).toBe("github");
      expect(data.repository).toBeNull();
      expect(data.settings).toEqual(DEFAULTS);
      expect(data.inherited).toEqual(DEFAULTS);
      for (const category of Object.values(data.sources)) {
        expect(new Set(Object.values(category))).toEqual(new Set(["default"]));
      }
      expect((await settingsOf(token, { integrationName: "azure-devops" })).integrationName).toBe(
        "azure-devops",
      );
    });

    it("save one category at a time, answer what was saved, and saving again changes nothing", async () => {
      const { token, orgId } = await signedInAccount(backend, "org-save");
      const body = everyKey("account_preferences", null, {
        review_draft_pull_requests: true,
        review_new_commits: false,
      });
      const saved = await save(token, "account_preferences", body);
      expect(saved).toEqual({
        category: "account_preferences",
        level: "organization",
        integrationName: "github",
        repositoryId: null,
        value: body,
        settings: {
          ...defaultsOf("account_preferences"),
          review_draft_pull_requests: true,
          review_new_commits: false,
        },
        sources: everyKey("account_preferences", "default", {
          review_draft_pull_requests: "organization",
          review_new_commits: "organization",
        }),
        inherited: defaultsOf("account_preferences"),
      });
      expect(await save(token, "account_preferences", body)).toEqual(saved);

      const data = await settingsOf(token);
      expect(data.settings.account_preferences).toEqual(saved.settings);
      expect(data.settings.review_scope).toEqual(DEFAULTS.review_scope);
      const rows = (await storedRows()).organization.filter((row) => row.org_id === orgId);
      expect(rows.map((row) => [row.integration_name, row.category, row.value])).toEqual([
        ["github", "account_preferences", { review_draft_pull_requests: true, review_new_commits: false }],
      ]);
    });

    it("replace the whole category: a key that is null or left out goes back to its default", async () => {
      const { token } = await signedInAccount(backend, "org-replace");
      await save(token, "comment_style", { summary_comment: false, shadow_mode: true });
      const saved = await save(token, "comment_style", { summary_comment: null });
      expect(saved.value).toEqual(everyKey("comment_style", null));
      expect(saved.settings).toEqual(DEFAULTS.comment_style);
      expect((await settingsOf(token)).sources.comment_style).toEqual(everyKey("comment_style", "default"));
    });

    it("are kept per code host", async () => {
      const { token } = await signedInAccount(backend, "per-host");
      await save(token, "review_scope", { skip_bot_authors: false }, { integrationName: "azure-devops" });
      expect(
        (await settingsOf(token, { integrationName: "azure-devops" })).settings.review_scope
          ?.skip_bot_authors,
      ).toBe(false);
      expect(
        (await settingsOf(token, { integrationName: "github" })).settings.review_scope?.skip_bot_authors,
      ).toBe(true);
    });
  });

  describe("repository values", () => {
    it("inherit the organisation's for their code host, which inherits the defaults", async () => {
      const { token, orgId } = await signedInAccount(backend, "inherit");
      const repositoryId = await addRepository(orgId, "web");
      const azureRepositoryId = await addRepository(orgId, "infra", "azure-devops");
      await save(token, "account_preferences", { review_draft_pull_requests: true });
      await save(token, "review_scope", { skip_generated_files: false }, { integrationName: "azure-devops" });

      const data = await settingsOf(token, { repositoryId, integrationName: "github", integrationKey: "k" });
      expect(data.level).toBe("repository");
      expect(data.integrationName).toBe("github");
      expect(data.repository).toEqual({ id: repositoryId, name: "web", full_name: "acme/web" });
      expect(data.settings.account_preferences?.review_draft_pull_requests).toBe(true);
      expect(data.sources.account_preferences?.review_draft_pull_requests).toBe("organization");
      expect(data.inherited.account_preferences?.review_draft_pull_requests).toBe(true);
      expect(data.sources.account_preferences?.auto_review).toBe("default");
      expect(data.settings.review_scope).toEqual(DEFAULTS.review_scope);

      // The Azure DevOps repository takes the organisation's Azure DevOps values, not GitHub's.
      const azure = await settingsOf(token, { repositoryId: azureRepositoryId });
      expect(azure.integrationName).toBe("azure-devops");
      expect(azure.settings.account_preferences?.review_draft_pull_requests).toBe(false);
      expect(azure.settings.review_scope?.skip_generated_files).toBe(false);
      expect(azure.sources.review_scope?.skip_generated_files).toBe("organization");

      const effective = await effectiveSettings(backend.db, orgId, azureRepositoryId);
      expect(effective.review_scope.skip_generated_files).toBe(false);
      expect(effective.account_preferences.review_draft_pull_requests).toBe(false);
      expect(
        (await organizationEffectiveSettings(backend.db, orgId, "github")).account_preferences
          .review_draft_pull_requests,
      ).toBe(true);
    });

    it("override the organisation's, follow it again once returned to inherited, and never change it", async () => {
      const { token, orgId } = await signedInAccount(backend, "override");
      const repositoryId = await addRepository(orgId, "api");
      await save(token, "comment_style", { summary_comment: false });

      const saved = await save(
        token,
        "comment_style",
        { summary_comment: true, inline_comments: false },
        { repositoryId },
      );
      expect(saved).toMatchObject({
        level: "repository",
        integrationName: "github",
        repositoryId,
        value: everyKey("comment_style", null, { summary_comment: true, inline_comments: false }),
        inherited: { ...defaultsOf("comment_style"), summary_comment: false },
      });
      expect(saved.settings.summary_comment).toBe(true);
      expect(saved.sources.summary_comment).toBe("repository");
      expect(saved.sources.suggested_changes).toBe("default");
      expect((await settingsOf(token)).settings.comment_style?.summary_comment).toBe(false);
      expect((await effectiveSettings(backend.db, orgId, repositoryId)).comment_style).toMatchObject({
        summary_comment: true,
        inline_comments: false,
      });

      // Organisation changes do not reach a value the repository sets, and do reach the others.
      await save(token, "comment_style", { summary_comment: false, suggested_changes: false });
      const after = await settingsOf(token, { repositoryId });
      expect(after.settings.comment_style).toMatchObject({ summary_comment: true, suggested_changes: false });
      expect(after.sources.comment_style).toMatchObject({
        summary_comment: "repository",
        suggested_changes: "organization",
      });

      // null: back to inherited.
      const back = await save(
        token,
        "comment_style",
        { summary_comment: null, inline_comments: false },
        { repositoryId },
      );
      expect(back.value.summary_comment).toBeNull();
      expect(back.settings.summary_comment).toBe(false);
      expect(back.sources.summary_comment).toBe("organization");
    });

    it("inherit pattern lists like switches, an empty list being a value of its own", async () => {
      const { token, orgId } = await signedInAccount(backend, "patterns");
      const repositoryId = await addRepository(orgId, "lists");
      const saved = await save(token, "review_scope", {
        ignored_paths: ["  docs/** ", "", "*.snap", "docs/**"],
        ignored_branches: ["release/*"],
      });
      // Trimmed, without blanks and repeats.
      expect(saved.value).toMatchObject({
        ignored_paths: ["docs/**", "*.snap"],
        ignored_branches: ["release/*"],
      });
      expect(saved.sources).toMatchObject({ ignored_paths: "organization", skip_bot_authors: "default" });

      const inherited = await settingsOf(token, { repositoryId });
      expect(inherited.settings.review_scope).toMatchObject({
        ignored_paths: ["docs/**", "*.snap"],
        ignored_branches: ["release/*"],
      });
      expect(inherited.sources.review_scope?.ignored_paths).toBe("organization");

      // The repository clears one list for itself: [] is its own value, not "inherit".
      const own = await save(token, "review_scope", { ignored_paths: [] }, { repositoryId });
      expect(own.value.ignored_paths).toEqual([]);
      expect(own.settings).toMatchObject({ ignored_paths: [], ignored_branches: ["release/*"] });
      expect(own.sources).toMatchObject({ ignored_paths: "repository", ignored_branches: "organization" });
      expect(own.inherited.ignored_paths).toEqual(["docs/**", "*.snap"]);
      const effective = await effectiveSettings(backend.db, orgId, repositoryId);
      expect(effective.review_scope.ignored_paths).toEqual([]);
      expect(effective.review_scope.ignored_branches).toEqual(["release/*"]);

      const back = await save(token, "review_scope", { ignored_paths: null }, { repositoryId });
      expect(back.settings.ignored_paths).toEqual(["docs/**", "*.snap"]);
      expect(back.sources.ignored_paths).toBe("organization");
    });

    it("inherit choices, numbers and text like switches, empty text being a value of its own", async () => {
      const { token, orgId } = await signedInAccount(backend, "kinds");
      const repositoryId = await addRepository(orgId, "kinds");
      const organization = await save(token, "comment_style", {
        severity_threshold: "minor",
        max_findings: 20,
      });
      expect(organization.value).toMatchObject({
        severity_threshold: "minor",
        max_findings: 20,
        shadow_mode: null,
      });
      const instructions = await save(token, "review_scope", {
        review_instructions: "  Prefer early returns.\n",
      });
      // Kept trimmed.
      expect(instructions.value.review_instructions).toBe("Prefer early returns.");

      const inherited = await settingsOf(token, { repositoryId });
      expect(inherited.settings.comment_style).toMatchObject({
        severity_threshold: "minor",
        max_findings: 20,
      });
      expect(inherited.sources.comment_style).toMatchObject({
        severity_threshold: "organization",
        max_findings: "organization",
        shadow_mode: "default",
      });
      expect(inherited.settings.review_scope?.review_instructions).toBe("Prefer early returns.");

      const own = await save(
        token,
        "comment_style",
        { severity_threshold: "critical", max_findings: 5, shadow_mode: true },
        { repositoryId },
      );
      expect(own.settings).toMatchObject({
        severity_threshold: "critical",
        max_findings: 5,
        shadow_mode: true,
      });
      expect(own.sources).toMatchObject({ severity_threshold: "repository", max_findings: "repository" });
      expect(own.inherited).toMatchObject({
        severity_threshold: "minor",
        max_findings: 20,
        shadow_mode: false,
      });
      const cleared = await save(token, "review_scope", { review_instructions: "" }, { repositoryId });
      expect(cleared.sources.review_instructions).toBe("repository");
      const effective = await effectiveSettings(backend.db, orgId, repositoryId);
      expect(effective.comment_style).toMatchObject({ severity_threshold: "critical", max_findings: 5 });
      expect(effective.review_scope.review_instructions).toBe("");

      const back = await save(
        token,
        "comment_style",
        { severity_threshold: null, shadow_mode: true },
        { repositoryId },
      );
      expect(back.settings).toMatchObject({
        severity_threshold: "minor",
        max_findings: 20,
        shadow_mode: true,
      });
      expect(back.sources).toMatchObject({
        severity_threshold: "organization",
        max_findings: "organization",
      });
    });

    it("go when their repository goes", async () => {
      const { token, orgId } = await signedInAccount(backend, "cascade");
      const repositoryId = await addRepository(orgId, "gone");
      await save(token, "review_scope", { review_test_files: false }, { repositoryId });
      await backend.db.deleteFrom("projects").where("id", "=", repositoryId).execute();
      expect((await storedRows()).repository.filter((row) => row.project_id === repositoryId)).toEqual([]);
    });
  });

  describe("validation", () => {
    it("refuses an unknown key or a value that is not on/off with 400 and a message, saving nothing", async () => {
      const { token, orgId } = await signedInAccount(backend, "validation");
      const repositoryId = await addRepository(orgId, "checked");
      const before = await storedRows();
      const cases: [Record<string, unknown>, string][] = [
        [
          { review_draft_pull_requests: true, auto_merge: true },
          'Unknown setting "auto_merge" in category "account_preferences"',
        ],
        [
          { review_draft_pull_requests: "yes" },
          'Setting "review_draft_pull_requests" is on or off: it takes true, false or null (inherit), not a string',
        ],
        [{ review_draft_pull_requests: 1 }, "not a number"],
        [{ review_draft_pull_requests: { on: true } }, "not an object"],
        [{ review_draft_pull_requests: [true] }, "not an array"],
        // The right key in the wrong category.
        [{ summary_comment: true }, 'Unknown setting "summary_comment"'],
      ];
      for (const [value, message] of cases) {
        for (const repository of [{}, { repositoryId }]) {
          const response = await put(token, API_PATHS.settingsCategory("account_preferences"), {
            value,
            ...repository,
          });
          expect(response.status, JSON.stringify(value)).toBe(400);
          expect(response.body.code).toBe("INVALID_REQUEST");
          expect(response.body.error).toContain(message);
          expect(response.body.message).toBe(response.body.error);
        }
      }
      expect(await storedRows()).toEqual(before);
    });

    it("refuses pattern lists that are not lists of strings or break the shared rules, saving nothing", async () => {
      const { token } = await signedInAccount(backend, "pattern-rules");
      const before = await storedRows();
      const cases: [unknown, string][] = [
        [
          "docs/**",
          'Setting "ignored_paths" is a list of patterns: it takes an array of strings or null (inherit), not a string',
        ],
        [["docs/**", 3], "not an array of other values"],
        [true, "not a boolean"],
        [
          Array.from({ length: 51 }, (_, i) => `dir${i}/**`),
          "Ignored paths: at most 50 patterns, one per line (this list has 51)",
        ],
        [
          ["x".repeat(201)],
          `Ignored paths: a pattern is at most 200 characters ("${"x".repeat(20)}…" has 201)`,
        ],
        [
          ["docs/**", "[invalid"],
          'Ignored paths: "[invalid" is not a valid glob pattern: "[" is never closed by "]"',
        ],
      ];
      for (const [value, message] of cases) {
        const response = await put(token, API_PATHS.settingsCategory("review_scope"), {
          value: { ignored_paths: value },
        });
        expect(response.status, JSON.stringify(value).slice(0, 60)).toBe(400);
        expect(response.body.error).toBe(response.body.message);
        expect(response.body.error).toContain(message);
      }
      // At the limits exactly: taken.
      await save(token, "review_scope", {
        ignored_paths: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(200, "x")),
      });
      expect((await storedRows()).organization.length).toBe(before.organization.length + 1);
    });

    it("refuses choices, numbers and text that break the shared rules with a message naming the setting, saving nothing", async () => {
      const { token, orgId } = await signedInAccount(backend, "kind-rules");
      const repositoryId = await addRepository(orgId, "kind-rules");
      const before = await storedRows();
      const threshold = 'Lowest severity reported: one of "critical", "major", "minor" or "info"';
      const most = "Most findings per review: a whole number from 1 to 50";
      const cases: [string, Record<string, unknown>, string][] = [
        ["comment_style", { severity_threshold: "high" }, threshold],
        ["comment_style", { severity_threshold: true }, threshold],
        ["comment_style", { max_findings: 0 }, most],
        ["comment_style", { max_findings: 51 }, most],
        ["comment_style", { max_findings: 2.5 }, most],
        ["comment_style", { max_findings: "10" }, most],
        [
          "review_scope",
          { review_instructions: "x".repeat(4001) },
          "Review instructions: at most 4000 characters (this text has 4001)",
        ],
        ["review_scope", { review_instructions: ["a"] }, "Review instructions: text"],
      ];
      for (const [category, value, message] of cases) {
        for (const repository of [{}, { repositoryId }]) {
          const response = await put(token, API_PATHS.settingsCategory(category), { value, ...repository });
          expect(response.status, JSON.stringify(value).slice(0, 60)).toBe(400);
          expect(response.body.code).toBe("INVALID_REQUEST");
          expect(response.body.error).toBe(message);
        }
      }
      expect(await storedRows()).toEqual(before);
      // At the limits exactly, and blanks around text not counted: taken.
      await save(token, "comment_style", { max_findings: 1 });
      await save(token, "comment_style", { max_findings: 50, severity_threshold: "info" });
      const text = await save(token, "review_scope", { review_instructions: ` ${"x".repeat(4000)} ` });
      expect(text.value.review_instructions).toHaveLength(4000);
    });

    it("refuses malformed bodies and queries, and unknown categories and code hosts", async () => {
      const { token, orgId } = await signedInAccount(backend, "malformed");
      const repositoryId = await addRepository(orgId, "malformed");
      const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, n) => [`key_${n}`, true]));
      for (const body of [
        {},
        { value: [] },
        { value: "x" },
        { value: tooMany },
        { value: {}, repositoryId: 7 },
      ]) {
        const response = await put(token, API_PATHS.settingsCategory("review_scope"), body);
        expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
        expect(response.body.code).toBe("INVALID_REQUEST");
      }
      const longKey = await put(token, API_PATHS.settingsCategory("review_scope"), {
        value: { ["k".repeat(200)]: true },
      });
      expect(longKey.status).toBe(400);

      const unknownCategory = await put(token, API_PATHS.settingsCategory("billing"), { value: {} });
      expect(unknownCategory.status).toBe(404);
      expect(unknownCategory.body).toEqual({ error: "Setting category not found" });

      const unknownHost = await put(
        token,
        `${API_PATHS.settingsCategory("review_scope")}?integrationName=gitlab`,
        {
          value: {},
        },
      );
      expect(unknownHost.status).toBe(400);
      expect(unknownHost.body.error).toBe('Unknown integration "gitlab"');
      expect((await get(token, `${API_PATHS.settings}?integrationName=gitlab`)).status).toBe(400);
      expect((await get(token, `${API_PATHS.settings}?repositoryId=a&repositoryId=b`)).status).toBe(400);

      const otherHost = await get(
        token,
        `${API_PATHS.settings}?repositoryId=${repositoryId}&integrationName=azure-devops`,
      );
      expect(otherHost.status).toBe(400);
      expect(otherHost.body.error).toBe(
        'The repository belongs to the integration "github", not "azure-devops"',
      );
      expect((await storedRows()).repository.filter((row) => row.project_id === repositoryId)).toEqual([]);
    });
  });

  describe("read again right after a change", () => {
    it("show a save, a renamed repository and a removed one at once, though each was just read", async () => {
      const { token, orgId } = await signedInAccount(backend, "fresh-reads");
      const repositoryId = await addRepository(orgId, "first-name");
      const summaryDefault = DEFAULTS.comment_style?.summary_comment;
      // Read twice: on PGlite the second answer comes from memory (db/read-cache.ts).
      for (let read = 0; read < 2; read += 1) {
        expect((await settingsOf(token)).settings.comment_style?.summary_comment).toBe(summaryDefault);
        expect((await settingsOf(token, { repositoryId })).repository?.name).toBe("first-name");
      }

      await save(token, "comment_style", { summary_comment: !summaryDefault });
      expect((await settingsOf(token)).settings.comment_style?.summary_comment).toBe(!summaryDefault);
      const inherited = await settingsOf(token, { repositoryId });
      expect(inherited.settings.comment_style?.summary_comment).toBe(!summaryDefault);

      await backend.db
        .updateTable("projects")
        .set({ name: "second-name" })
        .where("id", "=", repositoryId)
        .execute();
      expect((await settingsOf(token, { repositoryId })).repository?.name).toBe("second-name");

      await backend.db.deleteFrom("projects").where("id", "=", repositoryId).execute();
      expect((await get(token, `${API_PATHS.settings}?repositoryId=${repositoryId}`)).status).toBe(404);
    });
  });

  describe("team rules", () => {
    it("answers a repository's team rules as its latest review read them, fresh after a review reads them again", async () => {
      const { token, orgId } = await signedInAccount(backend, "team-rules");
      const repositoryId = await addRepository(orgId, "ruled");
      // Not read yet: null for the repository, absent for the organisation.
      expect((await settingsOf(token, { repositoryId })).teamRules).toBeNull();
      expect((await settingsOf(token)).teamRules).toBeUndefined();
      const read = (baseSha: string, invalid: Array<{ path: string; error: string }>) =>
        recordTeamRules(backend.db, repositoryId, {
          folder: ".argus/rules",
          baseSha,
          readAt: new Date("2026-11-20T12:00:00Z"),
          team: { files: [".argus/rules/a.yml"], rules: [], invalid },
        });
      await read("a".repeat(40), []);
      expect((await settingsOf(token, { repositoryId })).teamRules).toEqual({
        folder: ".argus/rules",
        baseSha: "a".repeat(40),
        readAt: "2026-11-20T12:00:00.000Z",
        rules: [],
        invalid: [],
      });
      // On PGlite the answer above is kept in memory: a later read by a review replaces it at once.
      await read("b".repeat(40), [{ path: ".argus/rules/a.yml", error: "not valid YAML: x" }]);
      expect((await settingsOf(token, { repositoryId })).teamRules).toMatchObject({
        baseSha: "b".repeat(40),
        invalid: [{ path: ".argus/rules/a.yml", id: null, error: "not valid YAML: x" }],
      });
    });
  });

  describe("isolation between organisations", () => {
    it("answers 404 for another organisation's repository, reading and writing, and leaks no values", async () => {
      const mine = await signedInAccount(backend, "iso-mine");
      const theirs = await signedInAccount(backend, "iso-theirs");
      const theirRepository = await addRepository(theirs.orgId, "secret");
      await save(theirs.token, "account_preferences", { review_draft_pull_requests: true });
      await save(
        theirs.token,
        "review_scope",
        { skip_bot_authors: false },
        { repositoryId: theirRepository },
      );
      const before = await storedRows();

      for (const repositoryId of [theirRepository, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const read = await get(mine.token, `${API_PATHS.settings}?repositoryId=${repositoryId}`);
        expect(read.status).toBe(404);
        expect(read.body).toEqual({ error: "Repository not found" });
        const write = await put(mine.token, API_PATHS.settingsCategory("review_scope"), {
          value: { skip_bot_authors: true },
          repositoryId,
        });
        expect(write.status).toBe(404);
      }
      expect(await storedRows()).toEqual(before);
      expect((await settingsOf(mine.token)).settings).toEqual(DEFAULTS);
      await expect(effectiveSettings(backend.db, mine.orgId, theirRepository)).rejects.toBeInstanceOf(
        RepositoryNotFoundError,
      );
      // Theirs are untouched.
      const their = await settingsOf(theirs.token, { repositoryId: theirRepository });
      expect(their.settings.review_scope?.skip_bot_authors).toBe(false);
      expect(their.settings.account_preferences?.review_draft_pull_requests).toBe(true);
    });
  });
});

describe("values survive a restart of the backend on the same PGlite data directory", () => {
  let database: FreshDatabase;
  let backend: Backend | undefined;
  afterEach(async () => {
    await backend?.close();
    await database?.drop();
  });

  it("reads back what was saved before the restart", async () => {
    database = await freshDatabase("pglite", { survivesRestart: true });
    const start = () => createBackend(loadConfig({ ...TEST_BACKEND_ENV, ...database.env }));
    backend = await start();
    const { token, orgId } = await signedInAccount(backend, "restart");
    const project = await backend.db
      .insertInto("projects")
      .values({
        org_id: orgId,
        name: "kept",
        integration_key: "k",
        integration_name: "github",
        integration_type: "git",
        external_link: "https://example.com/kept",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const call = (method: "get" | "put", path: string, body?: object) => {
      const started = request((backend as Backend).app)
        [method](path)
        .set("Authorization", `Bearer ${token}`);
      return body ? started.send(body) : started;
    };
    expect(
      (
        await call("put", API_PATHS.settingsCategory("account_preferences"), {
          value: { review_draft_pull_requests: true },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call("put", API_PATHS.settingsCategory("comment_style"), {
          value: { inline_comments: false },
          repositoryId: project.id,
        })
      ).status,
    ).toBe(200);
    await backend.close();
    backend = undefined;

    backend = await start();
    const organization = v.parse(settingsResponseSchema, (await call("get", API_PATHS.settings)).body).data;
    expect(organization.settings.account_preferences?.review_draft_pull_requests).toBe(true);
    const repository = v.parse(
      settingsResponseSchema,
      (await call("get", `${API_PATHS.settings}?repositoryId=${project.id}`)).body,
    ).data;
    expect(repository.settings.account_preferences?.review_draft_pull_requests).toBe(true);
    expect(repository.sources.account_preferences?.review_draft_pull_requests).toBe("organization");
    expect(repository.settings.comment_style?.inline_comments).toBe(false);
    expect(repository.sources.comment_style?.inline_comments).toBe("repository");
  });
});
