import { Plug, SearchX, Settings } from "lucide-react";
import { useState } from "react";
import { href } from "react-router";
import type { Integration, ServiceHookSecret } from "../../shared/contract/code-hosts.ts";
import { INTEGRATIONS } from "../../shared/contract/code-hosts.ts";
import { Streamed } from "../components/streamed";
import { Alert, BackLink, ButtonLink, buttonClasses, Card, EmptyState, Skeleton } from "../components/ui";
import { ConnectionBadge, SandboxMark } from "../features/code-hosts/integration-card";
import { IntegrationIcon } from "../features/code-hosts/integration-icon";
import { IntegrationSetupForm } from "../features/code-hosts/integration-setup-form";
import { loadIntegration } from "../features/code-hosts/integrations.server";
import { ServiceHookPanel } from "../features/code-hosts/service-hook-panel";
import { organizationSettingsHref } from "../features/settings/settings-href";
import { backendFor } from "../lib/backend.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/integration";

export const handle: RouteHandle = { title: "Integrations" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Integrations", productNameOf(matches)) }];
}

/** The integration streams in: the promise is returned un-awaited and never rejects. */
export function loader({ context, request, params }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  return { integration: loadIntegration(api, params.integrationName) };
}

/** docs/product.md#integrationsname */
export default function IntegrationPage({ loaderData }: Route.ComponentProps) {
  // Here, above the streamed part, so a reload of the integration keeps the secret shown once.
  const [revealed, setRevealed] = useState<ServiceHookSecret | null>(null);
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <BackLink to={href("/integrations")}>Back to integrations</BackLink>
      <Streamed
        result={loaderData.integration}
        skeleton={<IntegrationSkeleton />}
        errorTitle={INTEGRATIONS.loadFailed}
        errorDescription="The integration could not be fetched. Check your connection and try again."
      >
        {(integration) =>
          integration ? (
            <IntegrationDetail integration={integration} revealed={revealed} onRevealed={setRevealed} />
          ) : (
            <EmptyState
              icon={<SearchX />}
              titleAs="h2"
              title={INTEGRATIONS.notFound}
              description="There is no integration by that name. Pick one from the list."
            />
          )
        }
      </Streamed>
    </div>
  );
}

interface ServiceHookState {
  revealed: ServiceHookSecret | null;
  onRevealed: (hook: ServiceHookSecret) => void;
}

function IntegrationDetail({ integration, ...hook }: { integration: Integration } & ServiceHookState) {
  return (
    <Card as="section" aria-labelledby="integration-name">
      <div className="flex items-start gap-4 border-border border-b px-6 py-5">
        <IntegrationIcon integration={integration} className="size-12" />
        <div className="min-w-0 flex-1 space-y-1">
          <h2 id="integration-name" className="font-semibold text-fg text-xl tracking-tight">
            {integration.display_name}
          </h2>
          <p className="text-fg-muted text-sm">{integration.sub_title}</p>
        </div>
        <SandboxMark integration={integration} />
      </div>
      <div className="space-y-5 px-6 py-5">
        <p className="text-fg-muted text-sm">{integration.description}</p>
        <IntegrationSetup integration={integration} {...hook} />
      </div>
      {/* Once connected, what is left to do here is to set its repositories' reviews up. */}
      {integration.isActive ? (
        <div className="flex justify-end border-border border-t px-6 py-4">
          <ButtonLink
            to={organizationSettingsHref(integration.name)}
            aria-label={`${INTEGRATIONS.settings} ${integration.display_name}`}
          >
            <Settings aria-hidden="true" className="size-4" />
            {INTEGRATIONS.settings}
          </ButtonLink>
        </div>
      ) : null}
    </Card>
  );
}

/** What follows the description: a form, a Connect button, or that it is connected. */
function IntegrationSetup({
  integration,
  revealed,
  onRevealed,
}: { integration: Integration } & ServiceHookState) {
  if (integration.fields.length > 0) {
    return integration.isActive ? (
      <>
        <Alert tone="success" title={INTEGRATIONS.connected}>
          {integration.display_name} is set up for your organization.
        </Alert>
        {integration.activeIntegration?.serviceHook !== undefined ? (
          <ServiceHookPanel integration={integration} revealed={revealed} onRevealed={onRevealed} />
        ) : null}
      </>
    ) : (
      <IntegrationSetupForm integration={integration} onServiceHook={onRevealed} />
    );
  }
  if (integration.isActive) return <ConnectionBadge active />;
  const oauthUrl = integration.links.oauth_url;
  if (!oauthUrl) {
    return (
      <Alert tone="warning">{integration.display_name} cannot be connected from this server right now.</Alert>
    );
  }
  // A full navigation: the installation page is the code host's (or the sandbox's /sandbox/install).
  return (
    <a
      href={oauthUrl}
      aria-label={`${INTEGRATIONS.connect} ${integration.display_name}`}
      className={buttonClasses({ variant: "primary" })}
    >
      <Plug aria-hidden="true" className="size-4" />
      {INTEGRATIONS.connect}
    </a>
  );
}

function IntegrationSkeleton() {
  return (
    <div aria-busy="true">
      <p className="sr-only" role="status">
        Loading integration…
      </p>
      <Card aria-hidden="true">
        <div className="flex items-start gap-4 border-border border-b px-6 py-5">
          <Skeleton className="size-12" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-6 w-1/3" />
            <Skeleton className="h-4 w-1/4" />
          </div>
        </div>
        <div className="space-y-3 px-6 py-5">
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-10 w-full" />
        </div>
      </Card>
    </div>
  );
}
