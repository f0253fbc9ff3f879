import type { Integration } from "../../../shared/contract.ts";
import { cn } from "../../lib/cn";

/**
 * An integration's mark: the first letter of its name on a tile. The app serves no image files
 * and the CSP loads none from elsewhere, so the catalogue's `links.icon` is not drawn. Decorative:
 * the display name beside it names the integration.
 */
export function IntegrationIcon({
  integration,
  className,
}: {
  integration: Integration;
  className?: string;
}) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-10 shrink-0 items-center justify-center rounded-md bg-accent-soft font-semibold text-accent-text",
        className,
      )}
    >
      {integration.display_name.charAt(0).toUpperCase()}
    </span>
  );
}
