/**
 * A pattern-list setting of /settings (docs/product.md#settings): a labelled textarea, one glob
 * pattern per line, saved with its own Save button rather than on every keystroke. The rules are
 * checked here with the backend's own messages (shared/contract/settings.ts) before anything is sent.
 */
import type { ReactNode } from "react";
import { patternsFromText, patternsProblem } from "../../../shared/contract/settings.ts";
import { Button } from "../../components/ui";
import { inputClasses } from "../../components/ui/text-field";
import { cn } from "../../lib/cn";
import { DraftField, useDraft } from "./draft-field";

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((entry, index) => entry === b[index]);

export function PatternListField({
  label,
  description,
  patterns,
  onSave,
}: {
  label: string;
  description: ReactNode;
  /** The value as shown: the saved one, or the one being saved. */
  patterns: string[];
  onSave: (patterns: string[]) => void;
}) {
  const { id, draft, edit, error, submit, describedBy } = useDraft(patterns.join("\n"));
  const next = patternsFromText(draft);
  return (
    <DraftField id={id} label={label} description={description} error={error}>
      <textarea
        id={id}
        rows={4}
        spellCheck={false}
        value={draft}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy()}
        onChange={(event) => edit(event.target.value)}
        className={cn(inputClasses({ invalid: Boolean(error), multiline: true }), "font-mono")}
      />
      <Button
        variant="secondary"
        size="sm"
        disabled={sameList(next, patterns)}
        aria-label={`Save ${label}`}
        onClick={() => submit(patternsProblem(label, next), () => onSave(next))}
      >
        Save
      </Button>
    </DraftField>
  );
}
