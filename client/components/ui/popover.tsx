import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { cn } from "../../lib/cn";

export interface PopoverTriggerProps {
  ref: RefObject<HTMLButtonElement | null>;
  "aria-expanded": boolean;
  "aria-controls": string;
  "aria-haspopup": "true";
  onClick: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A disclosure: a button that opens a floating panel (menus, account panels). Keyboard: Enter,
 * Space or ArrowDown open it and focus its first control; Escape closes it and gives focus back to
 * the button; leaving it (focus or click outside) closes it.
 */
export function Popover({
  renderTrigger,
  children,
  align = "end",
  className,
}: {
  renderTrigger: (props: PopoverTriggerProps) => ReactNode;
  children: (close: (options?: { restoreFocus?: boolean }) => void) => ReactNode;
  align?: "start" | "end";
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  const close = useCallback((options: { restoreFocus?: boolean } = {}) => {
    setOpen(false);
    if (options.restoreFocus ?? true) triggerRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const first = panelRef.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panelRef.current)?.focus();

    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    // Focus moving out of the trigger and panel (Tab past the last item) closes it too.
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null;
      if (next && !rootRef.current?.contains(next)) setOpen(false);
    };
    // Escape, from the trigger or anywhere in the panel, closes it and gives focus back.
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      close();
    };
    const root = rootRef.current;
    document.addEventListener("pointerdown", onPointerDown);
    root?.addEventListener("focusout", onFocusOut);
    root?.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      root?.removeEventListener("focusout", onFocusOut);
      root?.removeEventListener("keydown", onKeyDown);
    };
  }, [open, close]);

  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "ArrowDown" && !open) {
      event.preventDefault();
      setOpen(true);
    }
  };

  return (
    <div ref={rootRef} className="relative">
      {renderTrigger({
        ref: triggerRef,
        "aria-expanded": open,
        "aria-controls": panelId,
        "aria-haspopup": "true",
        onClick: () => setOpen((value) => !value),
        onKeyDown: onTriggerKeyDown,
      })}
      <div
        ref={panelRef}
        id={panelId}
        tabIndex={-1}
        hidden={!open}
        className={cn(
          "absolute top-full z-40 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-border bg-surface",
          "p-1.5 shadow-popover outline-none",
          align === "end" ? "right-0" : "left-0",
          className,
        )}
      >
        {open ? children(close) : null}
      </div>
    </div>
  );
}
