/**
 * What the settings that are edited before saving (pattern lists, numbers, text) share: a draft
 * that follows the shown value, and a frame with the label, the description and the message of
 * the shared rules (shared/contract/settings.ts, shared/contract/settings.ts) when a draft breaks them.
 */
import { CircleAlert } from "lucide-react";
import { type ReactNode, useId, useState } from "react";

/**
 * The draft of a field whose saved value is `shown`. When the shown value changes (saved, rolled
 * back, or back to inherited), the draft follows it and the message goes.
 */
export function useDraft(shown: string) {
  const id = useId();
  const [draft, setDraft] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  const [lastShown, setLastShown] = useState(shown);
  if (shown !== lastShown) {
    setLastShown(shown);
    setDraft(shown);
    setError(null);
  }
  /** Checks the draft with `problem` and saves it when it passes; shows the message otherwise. */
  function submit(problem: string | null, save: () => void) {
    setError(problem);
    if (!problem) save();
  }
  function edit(text: string) {
    setDraft(text);
    setError(null);
  }
  /** The control's aria-describedby: the description, the message, and anything else (a count). */
  const describedBy = (...more: string[]) =>
    [`${id}-description`, error ? `${id}-error` : null, ...more].filter(Boolean).join(" ");
  return { id, draft, edit, error, submit, describedBy };
}

export function DraftField({
  id,
  label,
  description,
  error,
  children,
}: {
  id: string;
  label: string;
  description: ReactNode;
  error: string | null;
  children: ReactNode;
}) {
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
      {children}
      {error ? (
        <p id={`${id}-error`} className="flex items-center gap-1.5 text-danger-text text-sm">
          <CircleAlert aria-hidden="true" className="size-3.5 shrink-0" />
          {error}
        </p>
      ) : null}
    </div>
  );
}
