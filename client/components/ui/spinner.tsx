import { cn } from "../../lib/cn";

const SIZES = { sm: "size-3.5 border-[1.5px]", md: "size-4 border-2", lg: "size-6 border-2" } as const;

export interface SpinnerProps {
  size?: keyof typeof SIZES;
  /**
   * Announced to assistive technology. Leave it out when the spinner sits inside something that
   * already says it is busy (a Button with `loading` sets aria-busy): it is then hidden.
   */
  label?: string;
  className?: string;
}

/** For actions in progress. Content that is loading gets a Skeleton instead. */
export function Spinner({ size = "md", label, className }: SpinnerProps) {
  const wheel = (
    <span
      aria-hidden="true"
      className={cn(
        "inline-block shrink-0 animate-spin rounded-full border-current border-r-transparent",
        SIZES[size],
        className,
      )}
    />
  );
  if (!label) return wheel;
  return (
    <span role="status" className="inline-flex items-center">
      {wheel}
      <span className="sr-only">{label}</span>
    </span>
  );
}
