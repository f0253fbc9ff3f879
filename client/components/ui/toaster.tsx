/**
 * sonner, dressed in the design system. Loaded on demand by toast.tsx with the first toast
 * (docs/decisions/006-page-weight.md); nothing else imports it.
 */
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from "lucide-react";
import { Toaster as SonnerToaster, toast as sonner } from "sonner";
import { cn } from "../../lib/cn";
import type { ToastInput, ToastTone } from "./toast";

const TONES: Record<ToastTone, { Icon: typeof Info; icon: string }> = {
  info: { Icon: Info, icon: "text-accent-text" },
  success: { Icon: CircleCheck, icon: "text-success-text" },
  warning: { Icon: TriangleAlert, icon: "text-warning-text" },
  danger: { Icon: CircleAlert, icon: "text-danger-text" },
};

/** sonner's region: `aria-live="polite"`, bottom right, our own toast markup. */
export function Toaster() {
  return <SonnerToaster position="bottom-right" customAriaLabel="Notifications" visibleToasts={4} />;
}

export function showToast(id: number, { tone = "info", title, description }: ToastInput, duration: number) {
  const { Icon, icon } = TONES[tone];
  sonner.custom(
    () => (
      <div
        className={cn(
          "flex w-(--width) max-w-full items-start gap-3 rounded-lg border border-border bg-surface p-3.5",
          "text-sm shadow-popover",
        )}
      >
        <Icon aria-hidden="true" className={cn("mt-0.5 size-4 shrink-0", icon)} />
        <div className="min-w-0 flex-1">
          <p className="font-medium text-fg">{title}</p>
          {description ? <p className="mt-0.5 text-fg-muted">{description}</p> : null}
        </div>
        <button
          type="button"
          onClick={() => sonner.dismiss(id)}
          aria-label="Dismiss notification"
          className="focus-ring -m-1 rounded-sm p-1 text-fg-subtle hover:text-fg"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </div>
    ),
    { id, duration },
  );
}

export function dismissToast(id: number) {
  sonner.dismiss(id);
}
