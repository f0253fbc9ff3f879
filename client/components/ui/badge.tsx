import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

export type BadgeTone = "neutral" | "accent" | "success" | "warning" | "danger";

const TONES: Record<BadgeTone, string> = {
  neutral: "border-border bg-surface-muted text-fg-muted",
  accent: "border-transparent bg-accent-soft text-accent-text",
  success: "border-success-border bg-success-soft text-success-text",
  warning: "border-warning-border bg-warning-soft text-warning-text",
  danger: "border-danger-border bg-danger-soft text-danger-text",
};

/** A badge's look, for badges written as HTML (rendered Markdown) rather than with <Badge>. */
export const badgeClassName = (tone: BadgeTone, className?: string) =>
  cn(
    "inline-flex h-5.5 items-center gap-1 whitespace-nowrap rounded-full border px-2 font-medium text-xs",
    "[&>svg]:size-3 [&>svg]:shrink-0",
    TONES[tone],
    className,
  );

/** A short label. Status tones (success, warning, danger) are for meaning, never decoration. */
export function Badge({
  tone = "neutral",
  icon,
  title,
  className,
  children,
}: {
  tone?: BadgeTone;
  icon?: ReactNode;
  title?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span title={title} className={badgeClassName(tone, className)}>
      {icon}
      {children}
    </span>
  );
}
