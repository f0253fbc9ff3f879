import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { ACTIVE_SETTING_TEMPLATES_PATH, type SettingTemplate } from "../../../shared/contract/settings.ts";
import { type ApiClient, ApiError } from "../../lib/api-client.ts";
import { forgetKeptTemplates, loadSettingsPage, TEMPLATES_KEPT_MS } from "./settings.server";

const TEMPLATE: SettingTemplate = {
  setting_category: "review",
  description: "Review",
  is_active: true,
  default_value: [],
};

/** A backend as one user's render reaches it: their own settings values, the shared templates. */
function backendOf(user: string, templates: () => Promise<SettingTemplate[]>) {
  const calls: string[] = [];
  const api = {
    async call(path: string) {
      calls.push(path);
      if (path === ACTIVE_SETTING_TEMPLATES_PATH) return { success: true, data: await templates() };
      if (path.startsWith(API_PATHS.settings))
        return { success: true, data: { level: "repository", owner: user } };
      throw new Error(`unexpected call ${path}`);
    },
    getIntegration: () => Promise.reject(new Error("a repository's view loads no integration")),
  } as unknown as Pick<ApiClient, "call" | "getIntegration">;
  return { api, calls };
}

const query = { repositoryId: "repository-1", integrationName: null, integrationKey: null };

describe("/settings loaded on the server", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    forgetKeptTemplates();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks for the templates once for every user, and each user sees their own values", async () => {
    const templates = vi.fn(async () => [TEMPLATE]);
    const alice = backendOf("alice", templates);
    const bob = backendOf("bob", templates);

    const alicePage = await loadSettingsPage(alice.api, query);
    const bobPage = await loadSettingsPage(bob.api, query);

    expect(alicePage).toMatchObject({ status: "ok", data: { kind: "ready", templates: [TEMPLATE] } });
    expect(alicePage).toMatchObject({ data: { settings: { owner: "alice" } } });
    expect(bobPage).toMatchObject({ status: "ok", data: { kind: "ready", templates: [TEMPLATE] } });
    expect(bobPage).toMatchObject({ data: { settings: { owner: "bob" } } });
    expect(templates).toHaveBeenCalledTimes(1);
    // Bob's render still asked the backend for his own values.
    expect(bob.calls).toEqual([expect.stringMatching(/^\/api\/settings\?/)]);
  });

  it("asks again once the kept templates are older than their time", async () => {
    const templates = vi.fn(async () => [TEMPLATE]);
    const { api } = backendOf("alice", templates);
    await loadSettingsPage(api, query);
    vi.advanceTimersByTime(TEMPLATES_KEPT_MS - 1);
    await loadSettingsPage(api, query);
    expect(templates).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2);
    await loadSettingsPage(api, query);
    expect(templates).toHaveBeenCalledTimes(2);
  });

  it("keeps no failed answer: the next render asks again", async () => {
    const templates = vi
      .fn<() => Promise<SettingTemplate[]>>()
      .mockRejectedValueOnce(new ApiError(503, undefined, "Unavailable"))
      .mockResolvedValue([TEMPLATE]);
    const { api } = backendOf("alice", templates);
    expect(await loadSettingsPage(api, query)).toMatchObject({ status: "error" });
    expect(await loadSettingsPage(api, query)).toMatchObject({ status: "ok", data: { kind: "ready" } });
    expect(templates).toHaveBeenCalledTimes(2);
  });
});
