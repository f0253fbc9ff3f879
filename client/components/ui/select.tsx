import { Check, ChevronDown } from "lucide-react";
import { Select as Radix } from "radix-ui";
import { type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";
import { inputClasses } from "./text-field";

export interface SelectOption {
  value: string;
  label: ReactNode;
}

/**
 * A labelled pick-one list on Radix: the trigger is a combobox named by the label, the options a
 * listbox with arrow keys, typeahead, Enter and Escape.
 */
export function Select({
  label,
  options,
  value,
  defaultValue,
  onValueChange,
  placeholder,
  disabled,
  name,
  className,
}: {
  label: ReactNode;
  options: readonly SelectOption[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  placeholder?: string;
  disabled?: boolean;
  name?: string;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="block font-medium text-fg text-sm">
        {label}
      </label>
      <Radix.Root
        value={value}
        defaultValue={defaultValue}
        onValueChange={onValueChange}
        disabled={disabled}
        name={name}
      >
        <Radix.Trigger
          id={id}
          className={cn(inputClasses(), "flex items-center justify-between gap-2 text-left")}
        >
          <Radix.Value placeholder={placeholder} />
          <Radix.Icon>
            <ChevronDown aria-hidden="true" className="size-4 text-fg-subtle" />
          </Radix.Icon>
        </Radix.Trigger>
        <Radix.Portal>
          <Radix.Content
            position="popper"
            sideOffset={4}
            className="z-50 max-h-(--radix-select-content-available-height) min-w-(--radix-select-trigger-width) overflow-hidden rounded-md border border-border bg-surface p-1 shadow-popover"
          >
            <Radix.Viewport>
              {options.map((option) => (
                <Radix.Item
                  key={option.value}
                  value={option.value}
                  className={cn(
                    "relative flex h-8 cursor-default select-none items-center rounded-sm pr-2 pl-7 text-fg text-sm outline-none",
                    "data-highlighted:bg-surface-muted data-disabled:opacity-55",
                  )}
                >
                  <Radix.ItemIndicator className="absolute left-2 inline-flex">
                    <Check aria-hidden="true" className="size-3.5 text-accent-text" />
                  </Radix.ItemIndicator>
                  <Radix.ItemText>{option.label}</Radix.ItemText>
                </Radix.Item>
              ))}
            </Radix.Viewport>
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
    </div>
  );
}
