import type { ComponentProps, ElementType, ReactNode } from "react";
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

export function CardHeader({
  title,
  description,
  actions,
  titleAs: Title = "h2",
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  titleAs?: "h2" | "h3" | "h4";
  className?: string;
}) {
  return (
    <div className={cn("flex items-start justify-between gap-4 px-5 pt-5", className)}>
      <div className="min-w-0 space-y-1">
        <Title className="font-semibold text-[15px] text-fg leading-6">{title}</Title>
        {description ? <p className="text-fg-muted text-sm">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
    </div>
  );
}

export function CardBody({ className, ...rest }: ComponentProps<"div">) {
  return <div className={cn("px-5 py-4", className)} {...rest} />;
}

export function CardFooter({ className, ...rest }: ComponentProps<"div">) {
  return (
    <div className={cn("flex items-center gap-2 border-border border-t px-5 py-3", className)} {...rest} />
  );
}
