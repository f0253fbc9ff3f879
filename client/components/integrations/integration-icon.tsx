import { Blocks } from "lucide-react";
import type { Integration } from "../../../shared/contract.ts";
import { cn } from "../../lib/cn";
import { GitHubMark } from "../icons";

/**
 * An integration's mark, drawn here: the app serves no image files and the CSP loads none from
 * elsewhere, so the catalogue's `links.icon` only picks between the marks we ship. Decorative: the
 * display name beside it names the integration.
 */
export function IntegrationIcon({
  integration,
  className,
}: {
  integration: Integration;
  className?: string;
}) {
  const Mark = integration.name === "github" ? GitHubMark : Blocks;
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-10 shrink-0 items-center justify-center rounded-md border border-border bg-surface-muted text-fg",
        className,
      )}
    >
      <Mark className="size-5" />
    </span>
  );
}
