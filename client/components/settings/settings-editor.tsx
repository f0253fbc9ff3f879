/**
 * The settings of /settings (docs/product.md#settings): one tab per category, with the first line
 * of its description and a switch or a pattern list per setting. A repository's settings each say whether they are
 * inherited from the organisation or set on the repository, and can go back to inherited.
 */
import { Undo2 } from "lucide-react";
import { useRef } from "react";
import { formatSnakeWords } from "../../../shared/format.ts";
import type { SettingItem, SettingsData, SettingTemplate } from "../../../shared/settings-contract.ts";
import { settingsApi } from "../../lib/lazy-settings";
import type { SaveScope } from "../../lib/settings-api";
import { Button, Switch, Tabs } from "../ui";
import { PatternListField } from "./pattern-list-field";
import { type SettingValue, useSettingSaves, type Value } from "./use-setting-saves";

/** A value in a few words: On or Off, or how many patterns. */
function describe(value: Value): string {
  if (typeof value === "boolean") return value ? "On" : "Off";
  if (!Array.isArray(value)) return String(value);
  if (value.length === 0) return "no patterns";
  return value.length === 1 ? "1 pattern" : `${value.length} patterns`;
}

export const INHERITANCE_TEXT = {
  inherited: "Inherited from organization",
  own: "Set on this repository",
  /** The button that returns a repository's value to inherited; says what that value is. */
  backToOrganization: (inherited: Value | undefined) =>
    inherited === undefined ? "Use organization value" : `Use organization value (${describe(inherited)})`,
} as const;

/** The first line of a category's description: what the tab says about it. */
export function summaryOf(description: string): string {
  return description.split("\n")[0]?.trim() ?? "";
}

export function SettingsEditor({
  templates,
  settings,
  scope,
}: {
  templates: SettingTemplate[];
  settings: SettingsData;
  scope: SaveScope;
}) {
  const { settingOf, change } = useSettingSaves(settings, scope);
  const repository = settings.level === "repository";
  return (
    // The calls load as the visitor reaches for a switch, so the first change does not wait for them.
    <fieldset
      aria-label="Review settings"
      className="min-w-0"
      onPointerEnter={settingsApi.preload}
      onFocus={settingsApi.preload}
    >
      <Tabs
        label="Setting categories"
        items={templates.map((template) => ({
          value: template.setting_category,
          label: formatSnakeWords(template.setting_category),
          content: (
            <div className="space-y-4">
              <p className="text-fg-muted text-sm">{summaryOf(template.description)}</p>
              <ul className="divide-y divide-border rounded-lg border border-border bg-surface">
                {template.default_value.map((item) => (
                  <li key={item.key} className="px-5 py-4">
                    <SettingRow
                      item={item}
                      value={settingOf(
                        template.setting_category,
                        item.key,
                        item.type === "patterns" ? [...item.value] : item.value,
                      )}
                      repository={repository}
                      onChange={(value) => change(template.setting_category, item.key, value, item.label)}
                    />
                  </li>
                ))}
              </ul>
            </div>
          ),
        }))}
      />
    </fieldset>
  );
}

function SettingRow({
  item,
  value,
  repository,
  onChange,
}: {
  item: SettingItem;
  value: SettingValue;
  repository: boolean;
  onChange: (value: Value | null) => void;
}) {
  const row = useRef<HTMLDivElement>(null);
  // The status is part of the switch's description, so a screen reader says it with the switch.
  const description = repository ? (
    <>
      {item.description}
      <span className="mt-1 block text-fg-subtle text-xs">
        {value.own ? INHERITANCE_TEXT.own : INHERITANCE_TEXT.inherited}
      </span>
    </>
  ) : (
    item.description
  );

  function inherit() {
    onChange(null);
    // The button goes once the value is inherited: keep the focus on the setting.
    row.current?.querySelector<HTMLElement>('[role="switch"], textarea')?.focus();
  }

  return (
    <div ref={row} className="space-y-2">
      {item.type === "boolean" ? (
        <Switch
          label={item.label}
          description={description}
          checked={value.value === true}
          onCheckedChange={(checked) => onChange(checked)}
        />
      ) : (
        <PatternListField
          label={item.label}
          description={description}
          patterns={Array.isArray(value.value) ? value.value : []}
          onSave={onChange}
        />
      )}
      {repository && value.own ? (
        <Button
          variant="ghost"
          size="sm"
          icon={<Undo2 aria-hidden="true" className="size-3.5" />}
          aria-label={`${INHERITANCE_TEXT.backToOrganization(value.inherited)} for ${item.label}`}
          onClick={inherit}
          className="-ml-2"
        >
          {INHERITANCE_TEXT.backToOrganization(value.inherited)}
        </Button>
      ) : null}
    </div>
  );
}
