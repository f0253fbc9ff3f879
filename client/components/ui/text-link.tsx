import { Link, type LinkProps } from "react-router";
import { cn } from "../../lib/cn";

/** An in-app text link in the accent colour. */
export function TextLink({ className, ...rest }: LinkProps) {
  return (
    <Link
      className={cn(
        "focus-ring rounded-sm font-medium text-accent-text underline-offset-4 hover:underline",
        className,
      )}
      {...rest}
    />
  );
}
