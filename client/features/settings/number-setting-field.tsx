/**
 * A number setting of /settings (docs/product.md#settings), such as the most findings per review:
 * a whole number within the setting's bounds, saved with Enter or its Save button, like a pattern
 * list. The bounds are checked here with the backend's own message (shared/contract/settings.ts).
 */
import type { ReactNode } from "react";
import { numberFromText, numberProblem } from "../../../shared/contract/settings.ts";
import { Button } from "../../components/ui";
import { inputClasses } from "../../components/ui/text-field";
import { cn } from "../../lib/cn";
import { DraftField, useDraft } from "./draft-field";

export function NumberSettingField({
  label,
  description,
  min,
  max,
  value,
  onSave,
}: {
  label: string;
  description: ReactNode;
  min: number;
  max: number;
  /** The value as shown: the saved one, or the one being saved. */
  value: number;
  onSave: (value: number) => void;
}) {
  const { id, draft, edit, error, submit, describedBy } = useDraft(String(value));
  const next = numberFromText(draft);
  return (
    <DraftField id={id} label={label} description={description} error={error}>
      {/* Our own message instead of the browser's: noValidate. Enter in the field submits. */}
      <form
        noValidate
        className="flex items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (next !== value) submit(numberProblem({ label, min, max }, next), () => onSave(next));
        }}
      >
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={draft}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy()}
          onChange={(event) => edit(event.target.value)}
          className={cn(inputClasses({ invalid: Boolean(error), width: "w-28" }), "tabular-nums")}
        />
        <Button
          type="submit"
          variant="secondary"
          size="field"
          disabled={next === value}
          aria-label={`Save ${label}`}
        >
          Save
        </Button>
      </form>
    </DraftField>
  );
}
