import { ArrowLeft } from "lucide-react";
import type { LinkProps } from "react-router";
import { cn } from "../../lib/cn";
import { TextLink } from "./text-link";

/**
 * The link at the top of a page back to the page it belongs to, with its arrow. A module of its own:
 * in text-link.tsx the arrow would load on every page that has a text link.
 */
export function BackLink({ className, children, ...rest }: LinkProps) {
  return (
    <TextLink className={cn("inline-flex items-center gap-1.5 text-sm", className)} {...rest}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      {children}
    </TextLink>
  );
}
