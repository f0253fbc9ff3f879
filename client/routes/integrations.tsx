import { Plug } from "lucide-react";
import type { Integration } from "../../shared/contract/code-hosts.ts";
import { INTEGRATIONS } from "../../shared/contract/code-hosts.ts";
import { Streamed } from "../components/streamed";
import { EmptyState } from "../components/ui";
import { IntegrationCard, IntegrationCardSkeleton } from "../features/code-hosts/integration-card";
import { loadIntegrations } from "../features/code-hosts/integrations.server";
import { backendFor } from "../lib/backend.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/integrations";

export const handle: RouteHandle = { title: "Integrations" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Integrations", productNameOf(matches)) }];
}

/** The list streams in: the promise is returned un-awaited and never rejects. */
export function loader({ context, request }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  return { integrations: loadIntegrations(api) };
}

/** docs/product.md#integrations */
export default function Integrations({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="integrations" className="space-y-4">
      <div className="space-y-1">
        <h2 id="integrations" className="font-semibold text-2xl text-fg tracking-tight">
          Integrations
        </h2>
        <p className="text-fg-muted text-sm">
          Connect a code host to review the pull requests of its repositories.
        </p>
      </div>
      <Streamed
        result={loaderData.integrations}
        skeleton={<IntegrationGridSkeleton />}
        errorTitle={INTEGRATIONS.loadFailed}
        errorDescription="The integrations could not be fetched. Check your connection and try again."
      >
        {(integrations) => <IntegrationGrid integrations={integrations} />}
      </Streamed>
    </section>
  );
}

function IntegrationGrid({ integrations }: { integrations: Integration[] }) {
  if (integrations.length === 0) {
    return (
      <EmptyState
        icon={<Plug />}
        title={INTEGRATIONS.noIntegrations}
        description="This server offers no integrations yet."
      />
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {integrations.map((integration) => (
        <li key={integration.name}>
          <IntegrationCard integration={integration} />
        </li>
      ))}
    </ul>
  );
}

function IntegrationGridSkeleton() {
  return (
    <div aria-busy="true">
      <p className="sr-only" role="status">
        Loading integrations…
      </p>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-hidden="true">
        {[0, 1].map((n) => (
          <li key={n}>
            <IntegrationCardSkeleton />
          </li>
        ))}
      </ul>
    </div>
  );
}
