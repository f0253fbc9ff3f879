import { Switch as Radix } from "radix-ui";
import { type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";

export interface SwitchProps {
  label: ReactNode;
  /** A line under the label; it also describes the switch to assistive technology. */
  description?: ReactNode;
  /** The label is for assistive technology only (a switch in a table row, named after its row). */
  labelHidden?: boolean;
  /**
   * Why the switch cannot be used now. Unlike `disabled` it stays focusable, so keyboard and
   * screen-reader users reach the reason: the switch is aria-disabled, described by it, and
   * toggling it does nothing. Show the reason on hover too (a Tooltip around the switch).
   */
  unavailableReason?: string | null;
  checked?: boolean;
  defaultChecked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  disabled?: boolean;
  name?: string;
  className?: string;
}

/** An on/off setting that applies at once (Radix switch: role switch, Space and Enter toggle). */
export function Switch({
  label,
  description,
  labelHidden = false,
  unavailableReason,
  onCheckedChange,
  className,
  ...rest
}: SwitchProps) {
  const id = useId();
  const descriptionId = description ? `${id}-description` : undefined;
  const reasonId = unavailableReason ? `${id}-reason` : undefined;
  return (
    <div className={cn("flex items-start justify-between gap-4", className)}>
      <div className={cn("min-w-0 space-y-0.5", labelHidden && "sr-only")}>
        <label htmlFor={id} className="font-medium text-fg text-sm">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-fg-muted text-sm">
            {description}
          </p>
        ) : null}
        {unavailableReason ? (
          <span id={reasonId} className="sr-only">
            {unavailableReason}
          </span>
        ) : null}
      </div>
      <Radix.Root
        id={id}
        aria-describedby={[descriptionId, reasonId].filter(Boolean).join(" ") || undefined}
        aria-disabled={unavailableReason ? true : undefined}
        onCheckedChange={unavailableReason ? undefined : onCheckedChange}
        className={cn(
          "focus-ring relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full",
          "bg-control-edge transition-colors data-[state=checked]:bg-accent",
          "disabled:cursor-not-allowed disabled:opacity-55",
          "aria-disabled:cursor-not-allowed aria-disabled:opacity-55",
        )}
        {...rest}
      >
        <Radix.Thumb className="block size-4 translate-x-0.5 rounded-full bg-surface shadow-card transition-transform data-[state=checked]:translate-x-4.5" />
      </Radix.Root>
    </div>
  );
}
