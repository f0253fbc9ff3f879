/**
 * The integration setup calls, from the browser to the gateway (same origin, the session cookie).
 *
 * Pages load it on demand (`integrationsApi`), never statically, to keep the call code off the
 * first load (docs/decisions/006-page-weight.md).
 */

import type {
  GithubSetupRequest,
  IntegrationSetupRequest,
  ServiceHookSecret,
} from "../../../shared/contract/code-hosts.ts";
import { AZURE_DEVOPS, INTEGRATIONS } from "../../../shared/contract/code-hosts.ts";
import { ApiError } from "../../lib/api-client.ts";
import { browserApiClient } from "../../lib/browser-api";

const api = browserApiClient();

export interface Outcome {
  ok: boolean;
  /** On failure, the server's message when it gave one, else the fallback. */
  message?: string;
}

async function outcomeOf(call: Promise<{ success: boolean; message: string }>, fallback: string) {
  try {
    const answer = await call;
    return answer.success ? { ok: true } : { ok: false, message: answer.message || fallback };
  } catch (error) {
    return { ok: false, message: error instanceof ApiError && error.body ? error.message : fallback };
  }
}

/**
 * Saves an integration's setup form (docs/product.md#integrationsname); `serviceHook` when this
 * setup made Azure DevOps' hook secret, which is shown once.
 */
export async function saveIntegrationSetup(
  name: string,
  values: IntegrationSetupRequest,
): Promise<Outcome & { serviceHook?: ServiceHookSecret | undefined }> {
  let serviceHook: ServiceHookSecret | undefined;
  const outcome = await outcomeOf(
    api.setupIntegration(name, values).then((answer) => {
      serviceHook = answer.serviceHook;
      return answer;
    }),
    INTEGRATIONS.saveFailed,
  );
  return { ...outcome, serviceHook };
}

/** A new Azure DevOps service-hook secret, shown once; the old one stops working. */
export async function generateHookSecret(): Promise<Outcome & { serviceHook?: ServiceHookSecret }> {
  try {
    const answer = await api.generateAzureDevOpsHookSecret();
    return { ok: true, serviceHook: answer.data };
  } catch (error) {
    return {
      ok: false,
      message: error instanceof ApiError && error.body ? error.message : AZURE_DEVOPS.secretFailed,
    };
  }
}

/**
 * Completes an app installation (docs/product.md#installation). On failure `message` is the
 * server's reason only, empty without one: the page's heading already says it failed.
 */
export function completeInstallation(body: GithubSetupRequest): Promise<Outcome> {
  return outcomeOf(api.setupGitHub(body), "");
}
