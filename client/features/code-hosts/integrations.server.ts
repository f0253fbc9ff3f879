/** The integrations of /integrations and /integrations/{name}, loaded on the server. */
import { data } from "react-router";
import type { Integration } from "../../../shared/contract/code-hosts.ts";
import { INTEGRATIONS } from "../../../shared/contract/code-hosts.ts";
import {
  isSandboxInstallationId,
  SANDBOX_INTEGRATION,
  sandboxInstallationOf,
} from "../../../shared/contract/sandbox.ts";
import { type ApiClient, ApiError } from "../../lib/api-client.ts";
import { type LoadResult, settle } from "../../lib/load-result.server";

export function loadIntegrations(
  api: Pick<ApiClient, "getIntegrations">,
): Promise<LoadResult<Integration[]>> {
  return settle(
    api.getIntegrations().then((response) => response.data),
    INTEGRATIONS.loadFailed,
  );
}

/** One integration; null when the backend does not know the name (404). */
export function loadIntegration(
  api: Pick<ApiClient, "getIntegration">,
  name: string,
): Promise<LoadResult<Integration | null>> {
  return settle(
    api.getIntegration(name).then(
      (response) => response.data,
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      },
    ),
    INTEGRATIONS.loadFailed,
  );
}

/**
 * The installation /sandbox/install offers and the code it hands back (the backend checks it on
 * setup). A 404 unless the backend's code host is the sandbox (its Connect link is a sandbox one)
 * and the query names a sandbox installation and a code.
 */
export async function loadSandboxInstallation(
  api: Pick<ApiClient, "getIntegration">,
  query: URLSearchParams,
): Promise<{ installationId: string; code: string }> {
  const { data: integration } = await api.getIntegration(SANDBOX_INTEGRATION);
  const installationId = query.get("installation_id");
  const code = query.get("code");
  if (
    !sandboxInstallationOf(integration.links.oauth_url) ||
    !isSandboxInstallationId(installationId) ||
    !code
  ) {
    throw data(null, { status: 404 });
  }
  return { installationId, code };
}
