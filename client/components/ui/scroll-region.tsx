import { MoveHorizontal } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { cn } from "../../lib/cn";

/** Under a box while its content overflows. */
export const SCROLL_HINT = "Scroll sideways to see more";

interface Edges {
  /** Wider than its box: it scrolls. */
  overflows: boolean;
  /** Content hidden past the left edge. */
  before: boolean;
  /** Content hidden past the right edge. */
  after: boolean;
}
const FITS: Edges = { overflows: false, before: false, after: false };

function edgesOf(element: HTMLElement): Edges {
  const hidden = element.scrollWidth - element.clientWidth;
  // A pixel of rounding is not overflow.
  if (hidden <= 1) return FITS;
  return { overflows: true, before: element.scrollLeft > 1, after: element.scrollLeft < hidden - 1 };
}

/**
 * Something wide (a table) that scrolls sideways inside its own box, so the page never does
 * (docs/decisions/037-narrow-screens.md). Only while it overflows: a fade marks the edge with more
 * to see, a hint says so under it, and the box is a region named `label` in the tab order, so a
 * keyboard user can reach it and scroll it with the arrow keys. When it fits it is a plain box: no
 * landmark, no tab stop.
 */
export function ScrollRegion({
  label,
  className,
  busy,
  children,
}: {
  label: string;
  /** While what it shows is being replaced (a table asking for another page). */
  busy?: boolean;
  /**
   * The box's look (border, radius, background). The fades are the surface colour; on another
   * background set `--scroll-fade` to it too.
   */
  className?: string;
  children: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const [edges, setEdges] = useState(FITS);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () =>
      setEdges((current) => {
        const next = edgesOf(element);
        return next.overflows === current.overflows &&
          next.before === current.before &&
          next.after === current.after
          ? current
          : next;
      });
    // The box narrows with the window; the content widens with its rows. An observer reports each
    // element once on its own, after layout: measuring here too forced a layout in the effect, one
    // of the long tasks of hydrating /subscriptions (docs/performance.md, ninth round).
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    element.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", measure);
    };
  }, []);

  return (
    <div className="space-y-1.5">
      <div className={cn("relative overflow-hidden [--scroll-fade:var(--surface)]", className)}>
        <div
          ref={scroller}
          className="overflow-x-auto outline-none focus-visible:outline-2 focus-visible:outline-(--ring) focus-visible:-outline-offset-2"
          aria-busy={busy || undefined}
          {...(edges.overflows
            ? { role: "region", "aria-label": label, "aria-describedby": hintId, tabIndex: 0 }
            : {})}
        >
          {children}
        </div>
        <span
          aria-hidden="true"
          className={cn(
            "pointer-events-none absolute inset-y-0 left-0 w-8 bg-linear-to-r from-(--scroll-fade) to-transparent transition-opacity",
            edges.before ? "opacity-100" : "opacity-0",
          )}
        />
        <span
          aria-hidden="true"
          className={cn(
            "pointer-events-none absolute inset-y-0 right-0 w-8 bg-linear-to-l from-(--scroll-fade) to-transparent transition-opacity",
            edges.after ? "opacity-100" : "opacity-0",
          )}
        />
      </div>
      {edges.overflows ? (
        <p id={hintId} className="flex items-center gap-1.5 text-fg-muted text-xs">
          <MoveHorizontal aria-hidden="true" className="size-3.5" />
          {SCROLL_HINT}
        </p>
      ) : null}
    </div>
  );
}
