/**
 * The integration catalogue of the caller's organisation and its setup
 * (docs/product.md#integrations, #integrationsname, #installation).
 */
import type { Response, Router } from "express";
import {
  API_PATHS,
  githubSetupRequestSchema,
  type IntegrationResponse,
  type IntegrationSetupResponse,
  type IntegrationsResponse,
  integrationSetupRequestSchema,
} from "../../shared/contract.ts";
import { sessionOf } from "../auth/require-session.ts";
import type { ContributorImport } from "../contributors/import.ts";
import type { Db } from "../db/database.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";
import { azureDevOpsRepositories } from "../integrations/azure-devops.ts";
import {
  AZURE_DEVOPS_FIELDS,
  AZURE_DEVOPS_INTEGRATION,
  catalogueEntry,
  integrationsOf,
} from "../integrations/catalogue.ts";
import type { CodeHost, Installer, Repository } from "../integrations/code-host.ts";
import { codeHostFailure } from "../integrations/failures.ts";
import { connectFormSetup, connectInstallation, parseFormSetup } from "../integrations/setup.ts";

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

/** The code hosts set up by a form: the repositories its values give access to. */
const FORM_CODE_HOSTS: Record<string, (values: Record<string, string>) => Promise<Repository[]>> = {
  [AZURE_DEVOPS_INTEGRATION]: (values) =>
    azureDevOpsRepositories({
      organizationUrl: values[AZURE_DEVOPS_FIELDS.organizationUrl] ?? "",
      project: values[AZURE_DEVOPS_FIELDS.project] ?? "",
      personalAccessToken: values[AZURE_DEVOPS_FIELDS.personalAccessToken] ?? "",
    }),
};

export interface IntegrationsOptions {
  /** AZURE_DEVOPS_ALLOW_HTTP: an http organisation URL is accepted (a local fake). */
  azureDevOpsAllowHttp: boolean;
  /** Run once GitHub is connected, so the contributors are there when the page first asks. */
  contributorImport: ContributorImport;
}

export function integrationsRouter(db: Db, codeHost: CodeHost, options: IntegrationsOptions): Router {
  const router = strictRouter();

  router.get(API_PATHS.integrations, async (_req, res) => {
    const data = await integrationsOf(db, codeHost, installerOf(res));
    res.json({ success: true, data } satisfies IntegrationsResponse);
  });

  router.get(INTEGRATION_PATH, async (req, res) => {
    const entry = knownEntry(req.params.name);
    const [data] = await integrationsOf(db, codeHost, installerOf(res), entry);
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
    await codeHost.proveInstallation(installationId, code, installer).catch((error: unknown) => {
      throw codeHostFailure(error);
    });
    const repositories = await codeHost.repositories(installationId).catch((error: unknown) => {
      throw codeHostFailure(error);
    });
    await connectInstallation(db, org.id, installationId, repositories, codeHost.kind === "sandbox");
    // The connection stands without them: the contributors list imports again when asked for.
    await options.contributorImport.run(org.id, installationId, repositories).catch((error: unknown) => {
      req.log.warn({ err: error }, "contributors: import after connecting failed");
    });
    res.json({
      success: true,
      message: `GitHub connected with ${repositories.length} repositories`,
    } satisfies IntegrationSetupResponse);
  });

  router.post(INTEGRATION_SETUP_PATH, async (req, res) => {
    const entry = knownEntry(req.params.name);
    const repositoriesOf = FORM_CODE_HOSTS[entry.name];
    if (!repositoriesOf) throw new HttpError(404, { error: "Integration not found" });
    const body = parseRequest(integrationSetupRequestSchema, req.body);
    const values = parseFormSetup(entry, body, { allowHttp: options.azureDevOpsAllowHttp });
    // Checked with the code host before anything is stored: a refused setup leaves no trace.
    const repositories = await repositoriesOf(values).catch((error: unknown) => {
      throw codeHostFailure(error);
    });
    await connectFormSetup(db, sessionOf(res).org.id, entry, values, repositories);
    res.json({
      success: true,
      message: `${entry.display_name} connected with ${repositories.length} repositories`,
    } satisfies IntegrationSetupResponse);
  });

  return router;
}
