/**
 * The integration catalogue of the caller's organisation and its setup
 * (docs/product.md#integrations, #integrationsname, #installation).
 */
import type { Response, Router } from "express";
import { rateLimit } from "express-rate-limit";
import { sql } from "kysely";
import {
  AZURE_DEVOPS,
  githubSetupRequestSchema,
  type IntegrationResponse,
  type IntegrationSetupResponse,
  type IntegrationsResponse,
  integrationSetupRequestSchema,
  type ServiceHookSecretResponse,
} from "../../shared/contract/code-hosts.ts";
import type { ErrorBody } from "../../shared/contract/common.ts";
import { API_PATHS, ERROR_CODES } from "../../shared/contract/common.ts";
import type { Logger } from "../../shared/node/logging.ts";
import { sessionOf } from "../auth/require-session.ts";
import { azureDevOpsCodeHost } from "../code-hosts/azure-devops/code-host.ts";
import type { AzureDevOpsProject } from "../code-hosts/azure-devops/connect.ts";
import {
  AZURE_DEVOPS_PROJECT_ID,
  AzureDevOpsTokenError,
  readAzureDevOpsConnection,
  sealPersonalAccessToken,
} from "../code-hosts/azure-devops/connection.ts";
import { issueHookSecret, issueHookSecretIfMissing } from "../code-hosts/azure-devops/service-hooks.ts";
import {
  AZURE_DEVOPS_FIELDS,
  AZURE_DEVOPS_INTEGRATION,
  catalogueEntry,
  integrationsOf,
} from "../code-hosts/catalogue.ts";
import type { InstallationFlow, Installer } from "../code-hosts/code-host.ts";
import { codeHostFailure } from "../code-hosts/failures.ts";
import { connectFormSetup, connectInstallation, parseFormSetup } from "../code-hosts/setup.ts";
import type { ContributorImport } from "../contributors/import.ts";
import type { Db } from "../db/database.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { type HostLookup, OutboundAddressError, resolveOutbound } from "../net/outbound-address.ts";
import type { SecretBox } from "../secrets/secret-box.ts";

/** Express patterns of API_PATHS.integration(name) and API_PATHS.integrationSetup(name). */
const INTEGRATION_PATH = `${API_PATHS.integrations}/:name` as const;
const INTEGRATION_SETUP_PATH = `${INTEGRATION_PATH}/setup` as const;

/** The signed-in user and organisation, as a code host binds an installation to them. */
function installerOf(res: Response): Installer {
  const { org, user } = sessionOf(res);
  return { orgId: org.id, userId: user.id };
}

function knownEntry(name: string | undefined) {
  const entry = catalogueEntry(name ?? "");
  if (!entry) throw new HttpError(404, { error: "Integration not found" });
  return entry;
}

/** Setups of Azure DevOps per organisation and window: each one calls a URL of the user's choosing. */
const SETUPS_PER_WINDOW = 10;
const SETUP_WINDOW_MS = 10 * 60_000;

export interface IntegrationsOptions {
  /** AZURE_DEVOPS_ALLOW_HTTP: an http organisation URL is accepted (a local fake). */
  azureDevOpsAllowHttp: boolean;
  /** AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: an organisation URL may lead to loopback or a private network. */
  azureDevOpsAllowPrivateAddresses: boolean;
  /** Resolves the organisation URL's host; the system resolver unless a test points names elsewhere. */
  lookupHost?: HostLookup | undefined;
  /** Run once GitHub is connected, so the contributors are there when the page first asks. */
  contributorImport: ContributorImport;
  /** Seals the personal access token; opens it for a new hook secret. */
  secrets: SecretBox;
  logger: Logger;
  /** Where service hooks post: the gateway's public origin. */
  publicOrigin: string;
}

export function integrationsRouter(
  db: Db,
  installations: InstallationFlow,
  options: IntegrationsOptions,
): Router {
  const router = strictRouter();

  router.get(API_PATHS.integrations, async (_req, res) => {
    const data = await integrationsOf(db, installations, {
      installer: installerOf(res),
      publicOrigin: options.publicOrigin,
    });
    res.json({ success: true, data } satisfies IntegrationsResponse);
  });

  router.get(INTEGRATION_PATH, async (req, res) => {
    const entry = knownEntry(req.params.name);
    const [data] = await integrationsOf(
      db,
      installations,
      { installer: installerOf(res), publicOrigin: options.publicOrigin },
      entry,
    );
    if (!data) throw new Error("integrationsOf answers one integration per entry");
    res.json({ success: true, data } satisfies IntegrationResponse);
  });

  // Before INTEGRATION_SETUP_PATH, which it is a case of: GitHub is set up by its installation.
  router.post(API_PATHS.githubSetup, async (req, res) => {
    const { org_id, installationId, code } = parseRequest(githubSetupRequestSchema, req.body);
    const installer = installerOf(res);
    const { org } = sessionOf(res);
    if (org_id !== org.id) {
      throw new HttpError(403, { error: "You can only set up integrations of your own organization." });
    }
    // The proof comes first: nothing about an installation is asked or answered (400 unknown,
    // 409 taken) to someone who cannot show it is theirs (docs/decisions/027-installation-ownership.md).
    await installations.proveInstallation(installationId, code, installer).catch((error: unknown) => {
      throw codeHostFailure(error);
    });
    const repositories = await installations.repositories(installationId).catch((error: unknown) => {
      throw codeHostFailure(error);
    });
    await connectInstallation(db, org.id, installationId, repositories, installations.kind === "sandbox");
    // The connection stands without them: the contributors list imports again when asked for.
    await options.contributorImport.run(org.id, installationId, repositories).catch((error: unknown) => {
      req.log.warn({ err: error }, "contributors: import after connecting failed");
    });
    res.json({
      success: true,
      message: `GitHub connected with ${repositories.length} repositories`,
    } satisfies IntegrationSetupResponse);
  });

  // Each setup calls the organisation URL it names: limited per organisation, so the answers
  // (reached or not, by port) do not map a network, and never a private address unless allowed.
  const setupLimit = rateLimit({
    windowMs: SETUP_WINDOW_MS,
    limit: SETUPS_PER_WINDOW,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    keyGenerator: (_req, res) => sessionOf(res).org.id,
    handler: (_req, res) => {
      res.status(429).json({
        error: AZURE_DEVOPS.setupRateLimited,
        code: ERROR_CODES.rateLimited,
        message: AZURE_DEVOPS.setupRateLimited,
      } satisfies ErrorBody);
    },
  });
  const azureDevOpsCalls = async <T>(target: AzureDevOpsProject, call: () => Promise<T>): Promise<T> => {
    try {
      await resolveOutbound(
        new URL(target.organizationUrl).hostname,
        { allowPrivate: options.azureDevOpsAllowPrivateAddresses },
        options.lookupHost,
      );
    } catch (error) {
      throw new HttpError(400, {
        error:
          error instanceof OutboundAddressError ? AZURE_DEVOPS.addressRefused : AZURE_DEVOPS.unresolvable,
      });
    }
    return call().catch((error: unknown) => {
      throw codeHostFailure(error);
    });
  };

  router.post(API_PATHS.azureDevOpsHookSecret, setupLimit, async (_req, res) => {
    const orgId = sessionOf(res).org.id;
    const connection = await readAzureDevOpsConnection({ db, ...options }, orgId).catch((error: unknown) => {
      if (error instanceof AzureDevOpsTokenError) throw new HttpError(409, { error: error.message });
      throw error;
    });
    if (!connection) throw new HttpError(404, { error: "Azure DevOps is not set up for your organization." });
    // Set up before the project's id was kept: events name the project by id, so it is read now.
    if (!connection.projectId) {
      const { projectId } = await azureDevOpsCalls(connection, () =>
        azureDevOpsCodeHost.connect.repositories(connection),
      );
      await db
        .updateTable("integrations")
        .set((eb) => ({
          properties: sql`${eb.ref("properties")} || ${JSON.stringify({ [AZURE_DEVOPS_PROJECT_ID]: projectId })}::jsonb`,
        }))
        .where("org_id", "=", orgId)
        .where("name", "=", AZURE_DEVOPS_INTEGRATION)
        .execute();
    }
    const hook = await issueHookSecret(db, orgId, options.publicOrigin);
    if (!hook) throw new HttpError(404, { error: "Azure DevOps is not set up for your organization." });
    res.json({
      success: true,
      message: AZURE_DEVOPS.secretGenerated,
      data: hook,
    } satisfies ServiceHookSecretResponse);
  });

  router.post(INTEGRATION_SETUP_PATH, setupLimit, async (req, res) => {
    const entry = knownEntry(req.params.name as string | undefined);
    if (entry.name !== AZURE_DEVOPS_INTEGRATION) throw new HttpError(404, { error: "Integration not found" });
    const body = parseRequest(integrationSetupRequestSchema, req.body);
    const values = parseFormSetup(entry, body, { allowHttp: options.azureDevOpsAllowHttp });
    const orgId = sessionOf(res).org.id;
    const target: AzureDevOpsProject = {
      organizationUrl: values[AZURE_DEVOPS_FIELDS.organizationUrl] ?? "",
      project: values[AZURE_DEVOPS_FIELDS.project] ?? "",
      personalAccessToken: values[AZURE_DEVOPS_FIELDS.personalAccessToken] ?? "",
    };
    // Checked with the code host before anything is stored: a refused setup leaves no trace.
    const { projectId, repositories } = await azureDevOpsCalls(target, () =>
      azureDevOpsCodeHost.connect.repositories(target),
    );
    const sealed = {
      ...values,
      [AZURE_DEVOPS_FIELDS.personalAccessToken]: await sealPersonalAccessToken(
        options.secrets,
        orgId,
        target.personalAccessToken,
      ),
    };
    await connectFormSetup(db, orgId, entry, sealed, repositories, { [AZURE_DEVOPS_PROJECT_ID]: projectId });
    const serviceHook = await issueHookSecretIfMissing(db, orgId, options.publicOrigin);
    res.json({
      success: true,
      message: `${entry.display_name} connected with ${repositories.length} repositories`,
      ...(serviceHook ? { serviceHook } : {}),
    } satisfies IntegrationSetupResponse);
  });

  return router;
}
