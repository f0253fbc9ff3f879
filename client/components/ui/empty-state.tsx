import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

/** What a list shows when it has nothing, or could not load: an icon, a title, a line, an action. */
export function EmptyState({
  icon,
  title,
  description,
  action,
  tone = "neutral",
  titleAs: Title = "h3",
  className,
}: {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  tone?: "neutral" | "danger";
  titleAs?: "h2" | "h3" | "p";
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center justify-center rounded-lg border border-border border-dashed px-6 py-12",
        "text-center",
        className,
      )}
    >
      {icon ? (
        <div
          aria-hidden="true"
          className={cn(
            "mb-4 flex size-11 items-center justify-center rounded-full [&>svg]:size-5",
            tone === "danger" ? "bg-danger-soft text-danger-text" : "bg-surface-muted text-fg-muted",
          )}
        >
          {icon}
        </div>
      ) : null}
      <Title className="font-semibold text-[15px] text-fg">{title}</Title>
      {description ? <p className="mt-1 max-w-sm text-fg-muted text-sm">{description}</p> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
