/**
 * The AI model form (docs/product.md#settingsai-model): kind, base URL, model, API key, input-token limit
 * and monthly budget; Save, Test connection (its outcome in a live region) and Remove. The values
 * are checked with the contract's schema, fetched with the calls on first use (`aiModelApi`), so the
 * page shows the backend's own messages.
 */
import { PlugZap, Save, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { type FieldErrors, type Resolver, useForm } from "react-hook-form";
import { useRevalidator } from "react-router";
import { URL_MAX } from "../../../shared/constants.ts";
import type { AiModel, AiModelFormValues, AiModelRequest } from "../../../shared/contract/ai-model.ts";
import {
  AI_MODEL,
  INPUT_TOKEN_LIMIT,
  MODEL_API_KEY_MAX,
  MODEL_FAILURE_LABELS,
  MODEL_KIND_HINTS,
  MODEL_KINDS,
  MODEL_NAME_MAX,
  type ModelKind,
} from "../../../shared/contract/ai-model.ts";
import { Badge, Button, SelectField, TextField, useToast } from "../../components/ui";
import type { StoredKey, testAiModel } from "./ai-model-api";
import { aiModelApi } from "./lazy-ai-model";

/** The shared schema's verdict on the form's values; Save and Test get the request it makes. */
const resolver: Resolver<AiModelFormValues, StoredKey, AiModelRequest> = async (values, storedKey) => {
  const check = (await aiModelApi.load()).checkAiModelForm(values, storedKey);
  if (check.ok) return { values: check.request, errors: {} };
  const errors = Object.fromEntries(
    Object.entries(check.errors).map(([field, message]) => [field, { type: "schema", message }]),
  ) as FieldErrors<AiModelFormValues>;
  return { values: {}, errors };
};

function formValuesOf(model: AiModel | null): AiModelFormValues {
  return {
    kind: model?.kind ?? MODEL_KINDS[0].value,
    baseUrl: model?.baseUrl ?? "",
    model: model?.model ?? "",
    // Never the stored key: the page does not have it.
    apiKey: "",
    inputTokenLimit: String(model?.inputTokenLimit ?? INPUT_TOKEN_LIMIT.default),
    monthlyBudget: model?.monthlyBudgetCents == null ? "" : String(model.monthlyBudgetCents / 100),
  };
}

type TestOutcome = Awaited<ReturnType<typeof testAiModel>>;

function testOutcomeText(outcome: TestOutcome): string {
  if (outcome.ok) return `Connected in ${outcome.latencyMs} ms. The model replied: ${outcome.reply}`;
  return outcome.failure ? `${MODEL_FAILURE_LABELS[outcome.failure]}: ${outcome.message}` : outcome.message;
}

/**
 * `model`: the organisation's saved model, or null for a first one. `focusFirst`: the form was just
 * opened by a button, so focus moves into it.
 */
export function AiModelForm({ model, focusFirst = false }: { model: AiModel | null; focusFirst?: boolean }) {
  const [removingKey, setRemovingKey] = useState(false);
  const form = useForm<AiModelFormValues, StoredKey, AiModelRequest>({
    mode: "onTouched",
    resolver,
    context: {
      savedFor: model?.apiKeySet ? { kind: model.kind, baseUrl: model.baseUrl } : null,
      removing: removingKey,
    },
    defaultValues: formValuesOf(model),
  });
  const { toast } = useToast();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<"save" | "test" | "remove" | null>(null);
  const [testOutcome, setTestOutcome] = useState<TestOutcome | null>(null);
  // Set at once, before the re-render that disables the buttons: a double click acts once.
  const acting = useRef(false);
  const kind = form.watch("kind") as ModelKind;
  // Once, on mount: the button that opened the form is gone, so focus must not be lost.
  useEffect(() => {
    if (focusFirst) form.setFocus("kind");
  }, [focusFirst, form.setFocus]);
  const errors = form.formState.errors;

  async function act(what: "save" | "test" | "remove", work: () => Promise<void>) {
    if (acting.current) return;
    acting.current = true;
    setBusy(what);
    try {
      await work();
    } finally {
      acting.current = false;
      setBusy(null);
    }
  }

  /** A key typed in replaces the stored one; "Remove key" sends null; else the stored one stays. */
  const withKey = (request: AiModelRequest): AiModelRequest =>
    removingKey && request.apiKey === undefined ? { ...request, apiKey: null } : request;

  const save = (request: AiModelRequest) =>
    act("save", async () => {
      const outcome = await (await aiModelApi.load()).saveAiModel(withKey(request));
      toast({ tone: outcome.ok ? "success" : "danger", title: outcome.message });
      // The page loads the saved model again; the form starts over from it (its key is updatedAt).
      if (outcome.ok) await revalidator.revalidate();
    });

  const test = (request: AiModelRequest) =>
    act("test", async () => {
      setTestOutcome(null);
      setTestOutcome(await (await aiModelApi.load()).testAiModel(withKey(request)));
    });

  const remove = () =>
    act("remove", async () => {
      const outcome = await (await aiModelApi.load()).removeAiModel();
      toast({ tone: outcome.ok ? "success" : "danger", title: outcome.message });
      if (outcome.ok) await revalidator.revalidate();
    });

  const hints = MODEL_KIND_HINTS[kind] ?? MODEL_KIND_HINTS.openai;
  const keyStatus = removingKey
    ? AI_MODEL.keyRemoved
    : model?.apiKeySet
      ? AI_MODEL.keySet
      : AI_MODEL.keyNotSet;
  return (
    <form
      noValidate
      aria-label={AI_MODEL.title}
      onSubmit={form.handleSubmit(save)}
      onFocus={aiModelApi.preload}
      onPointerEnter={aiModelApi.preload}
      className="space-y-5"
    >
      <SelectField
        {...form.register("kind")}
        label="Kind"
        options={MODEL_KINDS}
        error={errors.kind?.message}
      />
      <TextField
        {...form.register("baseUrl")}
        label="Base URL"
        type="url"
        inputMode="url"
        placeholder={hints.baseUrl}
        maxLength={URL_MAX}
        required={kind === "openai-compatible"}
        autoComplete="off"
        spellCheck={false}
        hint={
          kind === "openai-compatible"
            ? "The server's OpenAI-compatible API, e.g. Ollama's http://localhost:11434/v1."
            : "Optional: a company proxy in front of the provider."
        }
        error={errors.baseUrl?.message}
      />
      <TextField
        {...form.register("model")}
        label="Model"
        placeholder={hints.model}
        maxLength={MODEL_NAME_MAX}
        required
        autoComplete="off"
        spellCheck={false}
        error={errors.model?.message}
      />
      <div className="space-y-2">
        <TextField
          {...form.register("apiKey")}
          label="API key"
          labelAside={
            <Badge tone={model?.apiKeySet && !removingKey ? "success" : "neutral"}>
              <span className="sr-only">API key: </span>
              {keyStatus}
            </Badge>
          }
          type="password"
          maxLength={MODEL_API_KEY_MAX}
          autoComplete="new-password"
          spellCheck={false}
          disabled={removingKey}
          hint={
            model?.apiKeySet
              ? "Leave empty to keep the stored key (only for this kind and base URL); type a new one to replace it."
              : "Stored encrypted; never shown again. Leave empty for a server that takes none."
          }
          error={errors.apiKey?.message}
        />
        {model?.apiKeySet ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => setRemovingKey((removing) => !removing)}
          >
            {removingKey ? "Keep the stored key" : "Remove the stored key"}
          </Button>
        ) : null}
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          {...form.register("inputTokenLimit")}
          label="Input-token limit"
          inputMode="numeric"
          required
          autoComplete="off"
          hint="The most tokens one request may carry; the diff is packed to fit."
          error={errors.inputTokenLimit?.message}
        />
        <TextField
          {...form.register("monthlyBudget")}
          label="Monthly budget (USD)"
          inputMode="decimal"
          placeholder="No cap"
          autoComplete="off"
          hint="Optional: empty means no cap."
          error={errors.monthlyBudget?.message}
        />
      </div>
      <div role="status" aria-live="polite" className="min-h-5 text-sm">
        {testOutcome ? (
          <p className={testOutcome.ok ? "text-success-text" : "text-danger-text"}>
            {testOutcomeText(testOutcome)}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 border-border border-t pt-4">
        {model ? (
          <Button
            type="button"
            variant="danger"
            loading={busy === "remove"}
            disabled={busy !== null}
            icon={<Trash2 aria-hidden="true" className="size-4" />}
            onClick={remove}
          >
            Remove AI model
          </Button>
        ) : (
          <span />
        )}
        <div className="flex flex-wrap gap-3">
          <Button
            type="button"
            variant="secondary"
            loading={busy === "test"}
            disabled={busy !== null}
            icon={<PlugZap aria-hidden="true" className="size-4" />}
            onClick={form.handleSubmit(test)}
          >
            Test connection
          </Button>
          <Button
            type="submit"
            loading={busy === "save"}
            disabled={busy !== null}
            icon={<Save aria-hidden="true" className="size-4" />}
          >
            Save
          </Button>
        </div>
      </div>
    </form>
  );
}
