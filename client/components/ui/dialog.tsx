import { X } from "lucide-react";
import { Dialog as Radix } from "radix-ui";
import { type ReactNode, useRef } from "react";
import { cn } from "../../lib/cn";
import { IconButton } from "./button";

/**
 * Focus on close goes to `returnFocusTo`, else to whatever was focused when the dialog opened. Radix
 * returns it to its own Trigger, which our dialogs do not use: they are loaded on demand and opened
 * by plain buttons (docs/decisions/007-ui-primitives-and-forms.md).
 */
export function useReturnFocus(returnFocusTo?: HTMLElement | null) {
  const opener = useRef<Element | null>(null);
  return {
    // Runs before Radix moves focus in, so the active element is still the opener.
    onOpenAutoFocus: () => {
      opener.current = document.activeElement;
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      const target = returnFocusTo ?? opener.current;
      if (target instanceof HTMLElement && target.isConnected) target.focus();
    },
  };
}

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** The buttons at the bottom (Cancel, Save...). */
  actions?: ReactNode;
  /** Focus goes here on close; by default back to whatever was focused on open. */
  returnFocusTo?: HTMLElement | null;
  /** The close button's accessible name. */
  closeLabel?: string;
  children?: ReactNode;
  className?: string;
}

/**
 * A modal dialog on Radix: focus is trapped inside and the page behind is inert, Escape or the
 * close button closes it, and focus returns when it closes. Load the module that renders it on
 * demand (docs/decisions/007-ui-primitives-and-forms.md): Radix's dialog is not on any first load.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  actions,
  returnFocusTo,
  closeLabel = "Close",
  children,
  className,
}: DialogProps) {
  const returnFocus = useReturnFocus(returnFocusTo);
  return (
    <Radix.Root open={open} onOpenChange={onOpenChange}>
      <Radix.Portal>
        <Radix.Overlay className="fixed inset-0 z-50 bg-overlay" />
        <Radix.Content
          {...returnFocus}
          // Without a description Radix would warn; aria-describedby is then left out on purpose.
          {...(description ? {} : { "aria-describedby": undefined })}
          className={cn(
            "fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2",
            "rounded-xl border border-border bg-surface p-6 text-fg shadow-popover outline-none",
            className,
          )}
        >
          <Radix.Title className="pr-8 font-semibold text-fg text-lg tracking-tight">{title}</Radix.Title>
          {description ? (
            <Radix.Description className="mt-1 text-fg-muted text-sm">{description}</Radix.Description>
          ) : null}
          {children ? <div className="mt-5">{children}</div> : null}
          {actions ? <div className="mt-6 flex flex-wrap justify-end gap-2">{actions}</div> : null}
          {/* Last in order, so opening focuses the dialog's first field rather than this button. */}
          <div className="absolute top-3 right-3">
            <Radix.Close asChild>
              <IconButton label={closeLabel} size="sm" icon={<X className="size-4" />} />
            </Radix.Close>
          </div>
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}
