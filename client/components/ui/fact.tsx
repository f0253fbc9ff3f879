import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

/** A term above its value, inside a `<dl>`: a run's facts, a setting shown read-only, a month's use. */
export function Fact({
  term,
  className,
  children,
}: {
  term: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("space-y-1", className)}>
      <dt className="text-fg-muted text-xs">{term}</dt>
      <dd className="text-fg">{children}</dd>
    </div>
  );
}
