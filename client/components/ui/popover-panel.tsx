/** Radix's Popover for popover.tsx, which loads this on demand and owns the trigger button. */
import { Popover } from "radix-ui";
import type { ReactNode, RefObject } from "react";
import { cn } from "../../lib/cn";

export function PopoverPanel({
  id,
  label,
  open,
  onOpenChange,
  anchorRef,
  restoreFocus,
  align,
  className,
  children,
}: {
  id: string;
  label: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  anchorRef: RefObject<HTMLButtonElement | null>;
  /** False when the panel closes to open something else (a dialog) that takes focus itself. */
  restoreFocus: RefObject<boolean>;
  align: "start" | "end";
  className?: string;
  children: ReactNode;
}) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      {/* Anchored to the caller's button: Radix's own Trigger would have to load with the page. */}
      <Popover.Anchor virtualRef={anchorRef as RefObject<HTMLButtonElement>} />
      <Popover.Portal>
        <Popover.Content
          id={id}
          aria-label={label}
          align={align}
          sideOffset={8}
          collisionPadding={16}
          // A press on the button toggles it; it is not a click outside. A real click or focus
          // elsewhere keeps focus where the user put it.
          onInteractOutside={(event) => {
            if (anchorRef.current?.contains(event.target as Node)) event.preventDefault();
            else restoreFocus.current = false;
          }}
          onEscapeKeyDown={() => {
            restoreFocus.current = true;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (restoreFocus.current) anchorRef.current?.focus();
          }}
          className={cn(
            "z-40 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-border bg-surface p-1.5 shadow-popover",
            "outline-none",
            className,
          )}
        >
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
