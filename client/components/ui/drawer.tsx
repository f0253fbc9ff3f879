import { X } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { cn } from "../../lib/cn";
import { IconButton } from "./button";

/**
 * A side sheet on a native modal <dialog>: the browser traps focus, makes the page behind inert and
 * closes it on Escape. A click on the
 * backdrop closes it too.
 */
export function Drawer({
  open,
  onClose,
  label,
  closeLabel = "Close",
  side = "left",
  children,
}: {
  open: boolean;
  onClose: () => void;
  /** The dialog's accessible name. */
  label: string;
  /** The close button's accessible name. */
  closeLabel?: string;
  side?: "left" | "right";
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);

  // A click on the backdrop lands on the dialog element itself (its content fills the panel).
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onClick = (event: MouseEvent) => {
      if (event.target === dialog) onClose();
    };
    dialog.addEventListener("click", onClick);
    return () => dialog.removeEventListener("click", onClick);
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    } else if (!open && dialog.open) {
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-label={label}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className={cn(
        "fixed inset-y-0 m-0 h-dvh max-h-none w-72 max-w-[85vw] border-border bg-surface p-0 text-fg shadow-popover",
        side === "left" ? "left-0 border-r" : "right-0 left-auto border-l",
      )}
    >
      <div className="relative flex h-full flex-col">
        <div className="absolute top-3 right-3 z-10">
          <IconButton label={closeLabel} size="sm" icon={<X className="size-4" />} onClick={onClose} />
        </div>
        {children}
      </div>
    </dialog>
  );
}
