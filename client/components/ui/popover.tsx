import { type ReactNode, type RefObject, useCallback, useId, useRef, useState } from "react";
import { lazyPart, useLazyPart } from "../../lib/lazy-part";

export interface PopoverTriggerProps {
  ref: RefObject<HTMLButtonElement | null>;
  "aria-expanded": boolean;
  "aria-controls": string | undefined;
  "aria-haspopup": "dialog";
  onClick: () => void;
  onPointerEnter: () => void;
  onFocus: () => void;
}

export type ClosePopover = (options?: { restoreFocus?: boolean }) => void;

// Radix's popover (positioning, dismissal, focus) loads when a pointer or focus reaches the trigger.
const panel = lazyPart(() => import("./popover-panel"));

/**
 * A button that opens a floating, non-modal panel (account panels, pickers). The button is ours and
 * on the first load; the panel is Radix's Popover, fetched on pointerenter or focus of the button.
 * Opening moves focus to the panel's first control; Escape closes it and gives focus back to the
 * button; a click outside, or focus leaving it, closes it.
 */
export function Popover({
  label,
  renderTrigger,
  children,
  align = "end",
  className,
}: {
  /** The panel's accessible name. */
  label: string;
  renderTrigger: (props: PopoverTriggerProps) => ReactNode;
  /** The panel's content; `trigger` is the button, for focus to come back to it later. */
  children: (close: ClosePopover, trigger: RefObject<HTMLButtonElement | null>) => ReactNode;
  align?: "start" | "end";
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const restoreFocus = useRef(true);
  const Panel = useLazyPart(panel, open)?.PopoverPanel;

  const close = useCallback<ClosePopover>((options = {}) => {
    restoreFocus.current = options.restoreFocus ?? true;
    setOpen(false);
  }, []);

  return (
    <>
      {renderTrigger({
        ref: triggerRef,
        "aria-expanded": open,
        "aria-controls": open ? panelId : undefined,
        "aria-haspopup": "dialog",
        onClick: () => {
          restoreFocus.current = true;
          setOpen((value) => !value);
        },
        onPointerEnter: panel.preload,
        onFocus: panel.preload,
      })}
      {Panel ? (
        <Panel
          id={panelId}
          label={label}
          open={open}
          onOpenChange={setOpen}
          anchorRef={triggerRef}
          restoreFocus={restoreFocus}
          align={align}
          className={className}
        >
          {children(close, triggerRef)}
        </Panel>
      ) : null}
    </>
  );
}
