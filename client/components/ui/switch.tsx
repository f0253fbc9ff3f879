import { Switch as Radix } from "radix-ui";
import { type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";

export interface SwitchProps {
  label: ReactNode;
  /** A line under the label; it also describes the switch to assistive technology. */
  description?: ReactNode;
  checked?: boolean;
  defaultChecked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  disabled?: boolean;
  name?: string;
  className?: string;
}

/** An on/off setting that applies at once (Radix switch: role switch, Space and Enter toggle). */
export function Switch({ label, description, className, ...rest }: SwitchProps) {
  const id = useId();
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className={cn("flex items-start justify-between gap-4", className)}>
      <div className="min-w-0 space-y-0.5">
        <label htmlFor={id} className="font-medium text-fg text-sm">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-fg-muted text-sm">
            {description}
          </p>
        ) : null}
      </div>
      <Radix.Root
        id={id}
        aria-describedby={descriptionId}
        className={cn(
          "focus-ring relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full",
          "bg-border-strong transition-colors data-[state=checked]:bg-accent",
          "disabled:cursor-not-allowed disabled:opacity-55",
        )}
        {...rest}
      >
        <Radix.Thumb className="block size-4 translate-x-0.5 rounded-full bg-surface shadow-card transition-transform data-[state=checked]:translate-x-4.5" />
      </Radix.Root>
    </div>
  );
}
