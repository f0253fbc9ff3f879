/**
 * Saving the settings of /settings (docs/product.md#settings): a change (a switch moved, a pattern
 * list saved) shows at once and saves its whole category; a failed save rolls it back and says so.
 *
 * Saves of one category run one after another, each sending the values last confirmed by the
 * backend plus its own change, so a failure rolls back exactly that change, even while a quicker
 * second change of the same category waits behind it.
 */
import { useCallback, useRef, useState } from "react";
import { useLocation } from "react-router";
import type { SettingsData, SettingsLevel } from "../../../shared/contract/settings.ts";
import { SETTINGS } from "../../../shared/contract/settings.ts";
import { useToast } from "../../components/ui";
import { useSignOut } from "../accounts/use-sign-out";
import { settingsApi } from "./lazy-settings";
import type { SaveOutcome, SaveScope } from "./settings-api";

/** A setting's value: on/off, a list of patterns, a choice or text, or a number. */
export type Value = boolean | string[] | string | number;

/** category → key → the value this level sets, or null where it inherits. */
type OwnValues = Record<string, Record<string, Value | null>>;

interface Change {
  id: number;
  category: string;
  key: string;
  value: Value | null;
}

/** What the answer says this level holds: its value where it sets one, null where it inherits. */
function ownValuesOf(level: SettingsLevel, data: SettingsData): OwnValues {
  const own: OwnValues = {};
  for (const [category, values] of Object.entries(data.settings)) {
    own[category] = {};
    for (const [key, value] of Object.entries(values)) {
      own[category][key] = data.sources[category]?.[key] === level ? value : null;
    }
  }
  return own;
}

async function save(
  scope: SaveScope,
  category: string,
  value: Record<string, Value | null>,
): Promise<SaveOutcome> {
  try {
    const { saveSettingsCategory } = await settingsApi.load();
    return await saveSettingsCategory(scope, category, value);
  } catch {
    // The calls could not even be fetched: as good as a network failure.
    return { status: "failed" };
  }
}

export interface SettingValue {
  /** The value in effect, as shown. */
  value: Value;
  /** Whether this level sets it (else it is inherited). */
  own: boolean;
  /** The value it would have without this level's own. */
  inherited: Value | undefined;
}

export function useSettingSaves(data: SettingsData, scope: SaveScope) {
  const { level } = data;
  const { toast } = useToast();
  const { signOut } = useSignOut();
  const location = useLocation();
  const returnTo = `${location.pathname}${location.search}`;
  const [confirmed, setConfirmed] = useState<OwnValues>(() => ownValuesOf(level, data));
  const [inherited, setInherited] = useState(data.inherited);
  const [changes, setChanges] = useState<Change[]>([]);
  // What the queued saves read when their turn comes; always what `confirmed` holds.
  const confirmedNow = useRef(confirmed);
  const queues = useRef(new Map<string, Promise<void>>());
  const nextId = useRef(1);

  const settingOf = useCallback(
    (category: string, key: string, fallback: Value): SettingValue => {
      let own = confirmed[category]?.[key] ?? null;
      for (const change of changes) {
        if (change.category === category && change.key === key) own = change.value;
      }
      const from = inherited[category]?.[key];
      return { value: own ?? from ?? fallback, own: own !== null, inherited: from };
    },
    [confirmed, changes, inherited],
  );

  /** Sets `key` to `value` at this level, or back to inherited with null. `label` names it in messages. */
  const change = useCallback(
    (category: string, key: string, value: Value | null, label: string) => {
      const pending: Change = { id: nextId.current++, category, key, value };
      setChanges((list) => [...list, pending]);
      const run = async () => {
        const body = { ...confirmedNow.current[category], [key]: value };
        const outcome = await save(scope, category, body);
        if (outcome.status === "saved") {
          confirmedNow.current = { ...confirmedNow.current, [category]: outcome.data.value };
          setConfirmed(confirmedNow.current);
          setInherited((now) => ({ ...now, [category]: outcome.data.inherited }));
          toast({
            tone: "success",
            title: level === "repository" ? SETTINGS.repositorySaved : SETTINGS.organizationSaved,
          });
        } else if (outcome.status === "unauthorized") {
          void signOut(returnTo);
        } else {
          // A refusal carries the backend's reason; anything else may work on a second try.
          toast({
            tone: "danger",
            title: outcome.status === "refused" ? outcome.message : SETTINGS.updateLabelFailed(label),
          });
        }
        // Batched with the updates above: the switch moves once, to the confirmed value.
        setChanges((list) => list.filter((item) => item.id !== pending.id));
      };
      const queued = (queues.current.get(category) ?? Promise.resolve()).then(run);
      queues.current.set(category, queued);
    },
    [scope, level, toast, signOut, returnTo],
  );

  return { settingOf, change };
}
