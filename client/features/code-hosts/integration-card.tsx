import { CircleCheck, FlaskRound } from "lucide-react";
import { href } from "react-router";
import type { Integration } from "../../../shared/contract/code-hosts.ts";
import { INTEGRATIONS } from "../../../shared/contract/code-hosts.ts";
import { sandboxInstallationOf } from "../../../shared/contract/sandbox.ts";
import { Badge, ButtonLink, Card, Skeleton } from "../../components/ui";
import { SANDBOX_TEXT } from "../sandbox/sandbox-text";
import { organizationSettingsHref } from "../settings/settings-href";
import { IntegrationIcon } from "./integration-icon";

/** Where a card leads: the settings of an active integration, else its setup page. */
function integrationHref(integration: Integration): string {
  return integration.isActive
    ? organizationSettingsHref(integration.name)
    : href("/integrations/:integrationName", { integrationName: integration.name });
}

/** The Connected or Not Connected label. */
export function ConnectionBadge({ active }: { active: boolean }) {
  return active ? (
    <Badge tone="success" icon={<CircleCheck aria-hidden="true" />}>
      {INTEGRATIONS.connected}
    </Badge>
  ) : (
    <Badge>{INTEGRATIONS.notConnected}</Badge>
  );
}

/** The Sandbox badge while the integration's Connect link is the sandbox code host's. */
export function SandboxMark({ integration }: { integration: Integration }) {
  return sandboxInstallationOf(integration.links.oauth_url) ? (
    <Badge tone="accent" icon={<FlaskRound aria-hidden="true" />} title={SANDBOX_TEXT.title}>
      {SANDBOX_TEXT.badge}
    </Badge>
  ) : null;
}

/** One integration on /integrations (docs/product.md#integrations). */
export function IntegrationCard({ integration }: { integration: Integration }) {
  const headingId = `integration-${integration.name}`;
  const action = integration.isActive ? INTEGRATIONS.settings : INTEGRATIONS.connect;
  return (
    <Card as="article" interactive className="flex h-full flex-col" aria-labelledby={headingId}>
      <div className="flex-1 space-y-3 px-5 pt-5 pb-4">
        <div className="flex items-start gap-3">
          <IntegrationIcon integration={integration} />
          <div className="min-w-0 flex-1">
            <h3 id={headingId} className="font-semibold text-[15px] text-fg leading-6">
              {integration.display_name}
            </h3>
            <p className="text-fg-muted text-xs">{integration.sub_title}</p>
          </div>
        </div>
        {/* On a line of their own, so the name keeps the header's width ("Azure DevOps" wrapped). */}
        <div className="flex flex-wrap items-center gap-1.5">
          <ConnectionBadge active={integration.isActive} />
          <SandboxMark integration={integration} />
        </div>
        <p className="text-fg-muted text-sm">{integration.description}</p>
      </div>
      <div className="flex justify-end border-border border-t px-3 py-2">
        <ButtonLink
          to={integrationHref(integration)}
          size="sm"
          variant={integration.isActive ? "secondary" : "primary"}
          aria-label={`${action} ${integration.display_name}`}
        >
          {action}
        </ButtonLink>
      </div>
    </Card>
  );
}

/** The loading shape of an IntegrationCard. */
export function IntegrationCardSkeleton() {
  return (
    <Card className="flex h-full flex-col">
      <div className="flex-1 space-y-3 px-5 pt-5 pb-4">
        <div className="flex items-start gap-3">
          <Skeleton className="size-10" />
          <div className="flex-1 space-y-1.5">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-3 w-1/3" />
          </div>
        </div>
        <Skeleton className="h-5 w-24 rounded-full" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-4/5" />
      </div>
      <div className="flex justify-end border-border border-t px-3 py-2">
        <Skeleton className="h-8 w-20" />
      </div>
    </Card>
  );
}
