import { cn } from "../../lib/cn";

/**
 * A placeholder shape for content that is loading. Hidden from assistive technology: the region
 * around it says it is busy (aria-busy) and carries a readable "Loading" text.
 */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-fg/8", className)} />;
}
