import { Tooltip as Radix } from "radix-ui";
import { type ReactElement, type ReactNode, useState } from "react";
import { TOOLTIP_MAX_WIDTH_PX } from "../../../shared/constants.ts";

/**
 * A short hint on hover or keyboard focus of `children` (one focusable element), which it also
 * describes to assistive technology. Escape hides it. Not for anything the user must read to act.
 * With no `content` it never opens, and `children` keep their place in the tree (no remount, so
 * focus stays when a hint comes and goes).
 */
export function Tooltip({
  content,
  children,
  side = "top",
}: {
  content: ReactNode | null;
  children: ReactElement;
  side?: "top" | "right" | "bottom" | "left";
}) {
  // Controlled throughout: a hint that comes and goes must not switch Radix between controlled and
  // uncontrolled, which React warns about.
  const [open, setOpen] = useState(false);
  return (
    <Radix.Provider delayDuration={300}>
      <Radix.Root open={content ? open : false} onOpenChange={setOpen}>
        <Radix.Trigger asChild>{children}</Radix.Trigger>
        <Radix.Portal>
          <Radix.Content
            side={side}
            sideOffset={6}
            collisionPadding={8}
            style={{ maxWidth: TOOLTIP_MAX_WIDTH_PX }}
            className="z-50 rounded-md bg-fg px-2.5 py-1.5 text-canvas text-xs shadow-popover"
          >
            {content}
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
    </Radix.Provider>
  );
}
