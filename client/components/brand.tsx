import { ScanEye } from "lucide-react";
import { cn } from "../lib/cn";

const SIZES = { sm: "size-7 rounded-md [&>svg]:size-4", lg: "size-11 rounded-lg [&>svg]:size-6" } as const;

/** The product mark: the accent tile with a watchful eye (Argus saw everything). */
export function BrandMark({ size = "sm", className }: { size?: keyof typeof SIZES; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "inline-flex shrink-0 items-center justify-center bg-accent text-accent-fg shadow-card",
        SIZES[size],
        className,
      )}
    >
      <ScanEye strokeWidth={2.25} />
    </span>
  );
}

/** The favicon, as a data URI (no extra request, allowed by the CSP's img-src data:). */
export const FAVICON_HREF = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4f46e5"/>' +
    '<path d="M6 16s3.6-6.5 10-6.5S26 16 26 16s-3.6 6.5-10 6.5S6 16 6 16Z" fill="none" stroke="#fff" stroke-width="2.4" ' +
    'stroke-linejoin="round"/><circle cx="16" cy="16" r="3" fill="#fff"/></svg>',
)}`;
