/**
 * The fake backend's settings answers for the client's tests: each value as the organisation or the
 * repository set it, else the one above it, else the template's default (docs/product.md#settings).
 * Written from the answer's contract, not from the backend's code, so a client test cannot pass only
 * because both sides share a mistake; backend/routes/settings.test.ts tests the real inheritance.
 */

import type { SettingsLevel } from "../../../shared/contract/settings.ts";
import type { SettingSource, SettingValue } from "../../../shared/settings-catalogue.ts";

type Stored = Readonly<Record<string, SettingValue>>;
interface Template {
  setting_category: string;
  default_value: readonly { key: string; value: SettingValue }[];
}

/** One category as the answers show it: own values (null: inherited), effective values, their sources. */
export function fakeResolvedCategory(
  template: Template,
  level: SettingsLevel,
  organization: Stored | undefined,
  repository: Stored | undefined,
) {
  const own: Record<string, SettingValue | null> = {};
  const settings: Record<string, SettingValue> = {};
  const sources: Record<string, SettingSource> = {};
  const inherited: Record<string, SettingValue> = {};
  for (const { key, value: fallback } of template.default_value) {
    const fromOrganization = organization?.[key];
    const fromRepository = level === "repository" ? repository?.[key] : undefined;
    const above = level === "repository" ? (fromOrganization ?? fallback) : fallback;
    const mine = level === "repository" ? fromRepository : fromOrganization;
    own[key] = mine ?? null;
    inherited[key] = above;
    settings[key] = mine ?? above;
    sources[key] =
      fromRepository !== undefined
        ? "repository"
        : fromOrganization !== undefined
          ? "organization"
          : "default";
  }
  return { own, settings, sources, inherited };
}

/** Every category, grouped the way GET /api/settings groups them. */
export function fakeResolvedSettings(
  templates: readonly Template[],
  level: SettingsLevel,
  organization: ReadonlyMap<string, Stored>,
  repository: ReadonlyMap<string, Stored>,
) {
  const settings: Record<string, Record<string, SettingValue>> = {};
  const sources: Record<string, Record<string, SettingSource>> = {};
  const inherited: Record<string, Record<string, SettingValue>> = {};
  for (const template of templates) {
    const name = template.setting_category;
    const resolved = fakeResolvedCategory(template, level, organization.get(name), repository.get(name));
    settings[name] = resolved.settings;
    sources[name] = resolved.sources;
    inherited[name] = resolved.inherited;
  }
  return { settings, sources, inherited };
}
