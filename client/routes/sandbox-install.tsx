import { FlaskRound } from "lucide-react";
import { href } from "react-router";
import { SANDBOX_INTEGRATION, sandboxInstallationCallback } from "../../shared/contract/sandbox.ts";
import { SANDBOX_REPOSITORIES } from "../../shared/sandbox-samples.ts";
import { ButtonLink, Card } from "../components/ui";
import { loadSandboxInstallation } from "../features/code-hosts/integrations.server";
import { SANDBOX_TEXT } from "../features/sandbox/sandbox-text";
import { backendFor } from "../lib/backend.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/sandbox-install";

// Under Integrations in the top bar, as /integrations/{name}; the page names itself.
export const handle: RouteHandle = { title: "Integrations" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle(SANDBOX_TEXT.title, productNameOf(matches)) }];
}

/** A 404 unless the backend's code host is the sandbox (see loadSandboxInstallation). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  return loadSandboxInstallation(api, new URL(request.url).searchParams);
}

/**
 * The sandbox's stand-in for GitHub's "Install the app" page (docs/product.md#where-we-differ):
 * Install goes back to /installation exactly as GitHub would, Cancel back to the integration.
 */
export default function SandboxInstall({ loaderData }: Route.ComponentProps) {
  const { installationId, code } = loaderData;
  return (
    <Card as="section" aria-labelledby="sandbox-install" className="mx-auto max-w-2xl">
      <div className="space-y-2 border-border border-b px-6 py-5">
        <div className="flex items-center gap-2">
          <FlaskRound aria-hidden="true" className="size-5 text-accent-text" />
          <h2 id="sandbox-install" className="font-semibold text-fg text-xl tracking-tight">
            {SANDBOX_TEXT.title}
          </h2>
        </div>
        <p className="text-fg-muted text-sm">{SANDBOX_TEXT.explanation}</p>
      </div>
      <div className="space-y-5 px-6 py-5">
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
          <dt className="text-fg-muted">{SANDBOX_TEXT.installationId}</dt>
          <dd className="break-all font-mono text-fg">{installationId}</dd>
        </dl>
        <div className="space-y-2">
          <h3 id="sandbox-repositories" className="font-medium text-fg text-sm">
            {SANDBOX_TEXT.repositories}
          </h3>
          <ul
            aria-labelledby="sandbox-repositories"
            className="divide-y divide-border rounded-md border border-border"
          >
            {SANDBOX_REPOSITORIES.map((repository) => (
              <li key={repository.id} className="space-y-0.5 px-4 py-2.5">
                <p className="font-medium font-mono text-fg text-sm">{repository.full_name}</p>
                {repository.description ? (
                  <p className="text-fg-muted text-sm">{repository.description}</p>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="flex justify-end gap-2 border-border border-t px-6 py-4">
        <ButtonLink to={href("/integrations/:integrationName", { integrationName: SANDBOX_INTEGRATION })}>
          {SANDBOX_TEXT.cancel}
        </ButtonLink>
        <ButtonLink to={sandboxInstallationCallback(installationId, code)} variant="primary">
          {SANDBOX_TEXT.install}
        </ButtonLink>
      </div>
    </Card>
  );
}
