import { useMemo, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import type { Integration, ServiceHookSecret } from "../../../shared/contract/code-hosts.ts";
import { INTEGRATIONS } from "../../../shared/contract/code-hosts.ts";
import { required } from "../../../shared/validation.ts";
import { Button, TextField, useToast } from "../../components/ui";
import { type FormRules, useRulesForm } from "../../lib/forms";
import { integrationsApi } from "./lazy-integrations";

type Values = Record<string, string>;

/**
 * The setup form of an integration with fields (docs/product.md#integrationsname): one required
 * input per field. Saving posts the values keyed by field key, then loads the integration again,
 * which is then active.
 */
export function IntegrationSetupForm({
  integration,
  onServiceHook,
}: {
  integration: Integration;
  /** Hears of the service-hook secret a setup made, to show it once. */
  onServiceHook?: (hook: ServiceHookSecret) => void;
}) {
  const { fields } = integration;
  const rules = useMemo(
    () => Object.fromEntries(fields.map((field) => [field.key, [required]])) as FormRules<Values>,
    [fields],
  );
  const form = useRulesForm<Values>(rules, Object.fromEntries(fields.map((field) => [field.key, ""])));
  const { toast } = useToast();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  // Set at once, before the re-render that disables Save: a double click saves once.
  const saving = useRef(false);

  async function save(values: Values) {
    if (saving.current) return;
    saving.current = true;
    setBusy(true);
    const { saveIntegrationSetup } = await integrationsApi.load();
    const trimmed = Object.fromEntries(fields.map((field) => [field.key, (values[field.key] ?? "").trim()]));
    const outcome = await saveIntegrationSetup(integration.name, trimmed);
    if (outcome.ok) {
      if (outcome.serviceHook) onServiceHook?.(outcome.serviceHook);
      toast({ tone: "success", title: INTEGRATIONS.saved });
      await revalidator.revalidate();
    } else {
      toast({ tone: "danger", title: outcome.message ?? INTEGRATIONS.saveFailed });
    }
    saving.current = false;
    setBusy(false);
  }

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(save)}
      onFocus={integrationsApi.preload}
      aria-label={`${integration.display_name} settings`}
      className="space-y-4"
    >
      {fields.map((field) => (
        <TextField
          key={field.key}
          {...form.register(field.key)}
          label={field.label}
          type={field.type}
          placeholder={field.hint}
          autoComplete="off"
          spellCheck={false}
          required
          error={form.formState.errors[field.key]?.message}
        />
      ))}
      <div className="flex justify-end">
        <Button type="submit" loading={busy}>
          {busy ? INTEGRATIONS.saving : INTEGRATIONS.saveSettings}
        </Button>
      </div>
    </form>
  );
}
