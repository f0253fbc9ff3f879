/**
 * Previous and next page of a list whose page is in the URL: plain links, so paging works before
 * hydration and the back button returns to the page left (docs/decisions/038-server-side-paging.md).
 */
import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { ButtonLink, buttonClasses } from "./ui";

export function Pager({
  label,
  page,
  pageCount,
  hrefOf,
}: {
  /** The navigation's name, e.g. "Repository pages". */
  label: string;
  page: number;
  pageCount: number;
  hrefOf: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-end gap-2 text-sm">
      <span className="text-fg-muted">
        Page {Math.min(page, pageCount)} of {pageCount}
      </span>
      <PageLink to={page > 1 ? hrefOf(Math.min(page, pageCount) - 1) : undefined} rel="prev">
        <ChevronLeft aria-hidden="true" className="size-4" />
        Previous
      </PageLink>
      <PageLink to={page < pageCount ? hrefOf(page + 1) : undefined} rel="next">
        Next
        <ChevronRight aria-hidden="true" className="size-4" />
      </PageLink>
    </nav>
  );
}

/** A link to a page, or the same look disabled at either end. */
function PageLink({ to, rel, children }: { to: string | undefined; rel: string; children: ReactNode }) {
  if (to === undefined) {
    return (
      <span
        aria-disabled="true"
        className={`${buttonClasses({ variant: "secondary", size: "sm" })} opacity-50`}
      >
        {children}
      </span>
    );
  }
  return (
    <ButtonLink to={to} rel={rel} variant="secondary" size="sm">
      {children}
    </ButtonLink>
  );
}
