import { CircleAlert } from "lucide-react";
import { type ComponentProps, type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";
import { FIELD_HEIGHT } from "./field-height";

export interface TextFieldProps extends Omit<ComponentProps<"input">, "id"> {
  label: ReactNode;
  /** Help shown under the field while it has no error. */
  hint?: ReactNode;
  /** The message to show; the field is marked aria-invalid while there is one. */
  error?: string;
  /** Something beside the label, such as a "Forgot Password" link. */
  labelAside?: ReactNode;
  id?: string;
}

/**
 * The look of a text input, textarea or select. Its size is chosen here, not overridden by the
 * caller's classes: two classes for one property are decided by the stylesheet's order, not by
 * their order in the attribute (a caller's "w-28" lost to "w-full").
 */
export function inputClasses({
  invalid = false,
  width = "w-full",
  multiline = false,
}: {
  invalid?: boolean;
  width?: string;
  multiline?: boolean;
} = {}): string {
  return cn(
    multiline ? "py-2" : FIELD_HEIGHT,
    width,
    "focus-ring block rounded-md border bg-surface px-3 text-[15px] text-fg shadow-card sm:text-sm",
    "placeholder:text-fg-subtle transition-colors disabled:cursor-not-allowed disabled:bg-surface-muted",
    "disabled:text-fg-muted",
    invalid ? "border-danger" : "border-control-edge hover:border-fg-subtle",
  );
}

/** A labelled input with hint and error, wired for assistive technology. */
export function TextField({ label, hint, error, labelAside, id, className, ...inputProps }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;

  return (
    <div className={cn("space-y-1.5", className)}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={inputId} className="font-medium text-fg text-sm">
          {label}
        </label>
        {labelAside}
      </div>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={inputClasses({ invalid: Boolean(error) })}
        {...inputProps}
      />
      {error ? (
        <p id={errorId} className="flex items-center gap-1.5 text-danger-text text-sm">
          <CircleAlert aria-hidden="true" className="size-3.5 shrink-0" />
          {error}
        </p>
      ) : hint ? (
        <p id={hintId} className="text-fg-muted text-sm">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
