import { ChevronDown, CircleAlert } from "lucide-react";
import { type ComponentProps, type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";
import { inputClasses } from "./text-field";

export interface SelectFieldProps extends Omit<ComponentProps<"select">, "id"> {
  label: ReactNode;
  /** A line under the label; it also describes the select to assistive technology. */
  description?: ReactNode;
  options: readonly { value: string; label: string }[];
  /**
   * A first, empty entry, so "required" can fail. Without one the select always holds an option
   * (a choice with a default).
   */
  placeholder?: string;
  error?: string;
  id?: string;
}

/** A labelled native select with an error, styled like TextField and wired the same way. */
export function SelectField({
  label,
  description,
  options,
  placeholder,
  error,
  id,
  className,
  ...selectProps
}: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  const errorId = error ? `${selectId}-error` : undefined;
  const descriptionId = description ? `${selectId}-description` : undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <div className="space-y-0.5">
        <label htmlFor={selectId} className="block font-medium text-fg text-sm">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-fg-muted text-sm">
            {description}
          </p>
        ) : null}
      </div>
      <div className="relative">
        <select
          id={selectId}
          aria-invalid={error ? true : undefined}
          aria-describedby={[descriptionId, errorId].filter(Boolean).join(" ") || undefined}
          className={cn(inputClasses({ invalid: Boolean(error) }), "appearance-none pr-9")}
          {...selectProps}
        >
          {placeholder === undefined ? null : <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDown
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-fg-subtle"
        />
      </div>
      {error ? (
        <p id={errorId} className="flex items-center gap-1.5 text-danger-text text-sm">
          <CircleAlert aria-hidden="true" className="size-3.5 shrink-0" />
          {error}
        </p>
      ) : null}
    </div>
  );
}
