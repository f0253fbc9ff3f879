import { CircleAlert, CircleCheck, Info, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

export type AlertTone = "info" | "success" | "warning" | "danger";

const TONES: Record<AlertTone, { box: string; Icon: typeof Info }> = {
  info: { box: "border-border bg-surface-muted text-fg", Icon: Info },
  success: { box: "border-success-border bg-success-soft text-success-text", Icon: CircleCheck },
  warning: { box: "border-warning-border bg-warning-soft text-warning-text", Icon: TriangleAlert },
  danger: { box: "border-danger-border bg-danger-soft text-danger-text", Icon: CircleAlert },
};

/**
 * An inline message. Danger messages interrupt (role alert); the others are polite (role status).
 */
export function Alert({
  tone = "info",
  title,
  action,
  className,
  children,
}: {
  tone?: AlertTone;
  title?: ReactNode;
  action?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  const { box, Icon } = TONES[tone];
  return (
    <div
      role={tone === "danger" ? "alert" : "status"}
      className={cn("flex items-start gap-3 rounded-md border px-3.5 py-3 text-sm", box, className)}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 flex-1 space-y-0.5">
        {title ? <p className="font-medium">{title}</p> : null}
        {children ? <div className={cn(title && "opacity-90")}>{children}</div> : null}
      </div>
      {action ? <div className="shrink-0 self-center">{action}</div> : null}
    </div>
  );
}
