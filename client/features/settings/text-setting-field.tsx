/**
 * A text setting of /settings (docs/product.md#settings), such as the review instructions: a
 * textarea with a character count, saved with its Save button. The length is checked here with the
 * backend's own message (shared/contract/settings.ts); blanks around the text are not kept or counted.
 */
import type { ReactNode } from "react";
import { normalizeText, textProblem } from "../../../shared/contract/settings.ts";
import { Button } from "../../components/ui";
import { inputClasses } from "../../components/ui/text-field";
import { cn } from "../../lib/cn";
import { DraftField, useDraft } from "./draft-field";

export function TextSettingField({
  label,
  description,
  maxLength,
  value,
  onSave,
}: {
  label: string;
  description: ReactNode;
  maxLength: number;
  /** The value as shown: the saved one, or the one being saved. */
  value: string;
  onSave: (value: string) => void;
}) {
  const { id, draft, edit, error, submit, describedBy } = useDraft(value);
  const next = normalizeText(draft);
  const countId = `${id}-count`;
  return (
    <DraftField id={id} label={label} description={description} error={error}>
      <textarea
        id={id}
        rows={6}
        value={draft}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(countId)}
        onChange={(event) => edit(event.target.value)}
        className={inputClasses({ invalid: Boolean(error), multiline: true })}
      />
      <div className="flex items-center justify-between gap-4">
        <Button
          variant="secondary"
          size="sm"
          disabled={next === value}
          aria-label={`Save ${label}`}
          onClick={() => submit(textProblem({ label, maxLength }, next), () => onSave(next))}
        >
          Save
        </Button>
        <p
          id={countId}
          className={cn(
            "text-xs tabular-nums",
            next.length > maxLength ? "text-danger-text" : "text-fg-muted",
          )}
        >
          {next.length} of {maxLength} characters
        </p>
      </div>
    </DraftField>
  );
}
