/**
 * A pattern-list setting of /settings (docs/product.md#settings): a labelled textarea, one glob
 * pattern per line, saved with its own Save button rather than on every keystroke. The rules are
 * checked here with the backend's own messages (shared/setting-patterns.ts) before anything is sent.
 */
import { CircleAlert } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { patternsFromText, patternsProblem } from "../../../shared/setting-patterns.ts";
import { cn } from "../../lib/cn";
import { Button } from "../ui";
import { inputClasses } from "../ui/text-field";

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
  const id = useId();
  const shown = patterns.join("\n");
  const [draft, setDraft] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  // The shown value changed (saved, rolled back, or back to inherited): the textarea follows it.
  const [lastShown, setLastShown] = useState(shown);
  if (shown !== lastShown) {
    setLastShown(shown);
    setDraft(shown);
  }
  const unchanged = sameList(patternsFromText(draft), patterns);

  function save() {
    const next = patternsFromText(draft);
    const problem = patternsProblem(label, next);
    setError(problem);
    if (!problem) onSave(next);
  }

  const describedBy = [`${id}-description`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="space-y-2">
      <div className="space-y-0.5">
        <label htmlFor={id} className="font-medium text-fg text-sm">
          {label}
        </label>
        <p id={`${id}-description`} className="text-fg-muted text-sm">
          {description}
        </p>
      </div>
      <textarea
        id={id}
        rows={4}
        spellCheck={false}
        value={draft}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          setDraft(event.target.value);
          setError(null);
        }}
        className={cn(inputClasses(Boolean(error)), "h-auto py-2 font-mono")}
      />
      {error ? (
        <p id={`${id}-error`} className="flex items-center gap-1.5 text-danger-text text-sm">
          <CircleAlert aria-hidden="true" className="size-3.5 shrink-0" />
          {error}
        </p>
      ) : null}
      <Button variant="secondary" size="sm" disabled={unchanged} aria-label={`Save ${label}`} onClick={save}>
        Save
      </Button>
    </div>
  );
}
