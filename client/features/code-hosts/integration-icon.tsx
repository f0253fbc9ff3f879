import type { ComponentType, SVGProps } from "react";
import type { Integration } from "../../../shared/contract/code-hosts.ts";
import type { SettingsProvider } from "../../../shared/settings-catalogue.ts";
import { cn } from "../../lib/cn";
import { AzureDevOpsMark, GitHubMark } from "./code-host-marks";

type Mark = ComponentType<SVGProps<SVGSVGElement>>;

/** Each code host's mark, by the catalogue's integration name. */
const MARKS: Partial<Record<string, Mark>> = {
  github: GitHubMark,
  "azure-devops": AzureDevOpsMark,
} satisfies Record<SettingsProvider, Mark>;

/**
 * An integration's mark on a tile: the code host's logo, or the first letter of its name for an
 * integration without one. Decorative: the display name beside it names the integration.
 */
export function IntegrationIcon({
  integration,
  className,
}: {
  integration: Integration;
  className?: string;
}) {
  const Mark = MARKS[integration.name];
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-10 shrink-0 items-center justify-center rounded-md border border-border bg-surface font-semibold text-accent-text",
        className,
      )}
    >
      {Mark ? <Mark className="size-3/5 text-fg" /> : integration.display_name.charAt(0).toUpperCase()}
    </span>
  );
}
