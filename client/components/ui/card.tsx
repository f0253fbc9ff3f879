import type { ComponentProps, ElementType } from "react";
import { cn } from "../../lib/cn";

type CardElement = "div" | "section" | "article" | "li";

export interface CardProps extends ComponentProps<"div"> {
  /** The element to render; `article` for items in a grid, `section` for a titled region. */
  as?: CardElement;
  /** Adds a hover lift for cards that hold a primary link. */
  interactive?: boolean;
}

/** The surface every panel, tile and form sits on. */
export function Card({ as = "div", interactive = false, className, ...rest }: CardProps) {
  const Element = as as ElementType;
  return (
    <Element
      className={cn(
        "rounded-lg border border-border bg-surface shadow-card",
        interactive && "transition-colors hover:border-border-strong",
        className,
      )}
      {...rest}
    />
  );
}
