/**
 * The settings of /settings (docs/product.md#settings): one tab per category, with the first line
 * of its description and a control per setting (a switch, a pattern list, a select, a number or a
 * text). A repository's settings each say whether they are inherited from the organisation or set on
 * the repository, and can go back to inherited.
 */
import { Undo2 } from "lucide-react";
import { type ReactNode, useRef } from "react";
import type { SettingItem, SettingsData, SettingTemplate } from "../../../shared/contract/settings.ts";
import { formatSnakeWords } from "../../../shared/format.ts";
import { Button, SelectField, Switch, Tabs } from "../../components/ui";
import { settingsApi } from "./lazy-settings";
import { NumberSettingField } from "./number-setting-field";
import { PatternListField } from "./pattern-list-field";
import type { SaveScope } from "./settings-api";
import { TextSettingField } from "./text-setting-field";
import { type SettingValue, useSettingSaves, type Value } from "./use-setting-saves";

/** A value in a few words: On or Off, how many patterns, the choice's label, the number, text set or not. */
function describe(item: SettingItem, value: Value): string {
  switch (item.type) {
    case "boolean":
      return value ? "On" : "Off";
    case "patterns": {
      const count = Array.isArray(value) ? value.length : 0;
      if (count === 0) return "no patterns";
      return count === 1 ? "1 pattern" : `${count} patterns`;
    }
    case "choice":
      return item.options.find((option) => option.value === value)?.label ?? String(value);
    case "number":
      return String(value);
    case "text":
      return typeof value === "string" && value !== "" ? "set" : "not set";
  }
}

export const INHERITANCE_TEXT = {
  inherited: "Inherited from organization",
  own: "Set on this repository",
  /** The button that returns a repository's value to inherited; says what that value is. */
  backToOrganization: (inherited: string | undefined) =>
    inherited === undefined ? "Use organization value" : `Use organization value (${inherited})`,
} as const;

/** The first line of a category's description: what the tab says about it. */
export function summaryOf(description: string): string {
  return description.split("\n")[0]?.trim() ?? "";
}

export function SettingsEditor({
  templates,
  settings,
  scope,
  extras = {},
  initialTab = null,
}: {
  templates: SettingTemplate[];
  settings: SettingsData;
  scope: SaveScope;
  /** The category whose tab opens first, when it is one of them; else the first. */
  initialTab?: string | null;
  /** Shown under a category's settings, by category (the team rules under the rule families). */
  extras?: Partial<Record<string, ReactNode>>;
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
        defaultValue={
          templates.find((template) => template.setting_category === initialTab)?.setting_category
        }
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
              {extras[template.setting_category] ?? null}
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
  // The status is part of the control's description, so a screen reader says it with the control.
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
    row.current?.querySelector<HTMLElement>('[role="switch"], select, input, textarea')?.focus();
  }

  const back = INHERITANCE_TEXT.backToOrganization(
    value.inherited === undefined ? undefined : describe(item, value.inherited),
  );
  return (
    <div ref={row} className="space-y-2">
      <SettingControl item={item} value={value.value} description={description} onChange={onChange} />
      {repository && value.own ? (
        <Button
          variant="ghost"
          size="sm"
          icon={<Undo2 aria-hidden="true" className="size-3.5" />}
          aria-label={`${back} for ${item.label}`}
          onClick={inherit}
          className="-ml-2"
        >
          {back}
        </Button>
      ) : null}
    </div>
  );
}

/** The control of one setting, by its kind: switches and choices save at once, the others on Save. */
function SettingControl({
  item,
  value,
  description,
  onChange,
}: {
  item: SettingItem;
  value: Value;
  description: ReactNode;
  onChange: (value: Value) => void;
}) {
  switch (item.type) {
    case "boolean":
      return (
        <Switch
          label={item.label}
          description={description}
          checked={value === true}
          onCheckedChange={(checked) => onChange(checked)}
        />
      );
    case "patterns":
      return (
        <PatternListField
          label={item.label}
          description={description}
          patterns={Array.isArray(value) ? value : []}
          onSave={onChange}
        />
      );
    case "choice":
      return (
        <SelectField
          label={item.label}
          description={description}
          options={item.options}
          value={String(value)}
          onChange={(event) => onChange(event.target.value)}
          className="max-w-sm"
        />
      );
    case "number":
      return (
        <NumberSettingField
          label={item.label}
          description={description}
          min={item.min}
          max={item.max}
          value={Number(value)}
          onSave={onChange}
        />
      );
    case "text":
      return (
        <TextSettingField
          label={item.label}
          description={description}
          maxLength={item.maxLength}
          value={typeof value === "string" ? value : ""}
          onSave={onChange}
        />
      );
  }
}
