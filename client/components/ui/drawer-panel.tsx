/** Radix's dialog as a side sheet, for drawer.tsx, which loads this on demand. */
import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import { cn } from "../../lib/cn";
import { IconButton } from "./button";
import { useReturnFocus } from "./dialog";
import type { DrawerProps } from "./drawer";

export function DrawerPanel({
  open,
  onClose,
  label,
  closeLabel = "Close",
  side = "left",
  children,
}: DrawerProps) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-overlay" />
        <Dialog.Content
          aria-describedby={undefined}
          {...returnFocus}
          className={cn(
            "fixed inset-y-0 z-50 h-dvh w-72 max-w-[85vw] border-border bg-surface text-fg shadow-popover",
            "outline-none",
            side === "left" ? "left-0 border-r" : "right-0 border-l",
          )}
        >
          <Dialog.Title className="sr-only">{label}</Dialog.Title>
          <div className="relative flex h-full flex-col">
            <div className="absolute top-3 right-3 z-10">
              <Dialog.Close asChild>
                <IconButton label={closeLabel} size="sm" icon={<X className="size-4" />} />
              </Dialog.Close>
            </div>
            {children}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
