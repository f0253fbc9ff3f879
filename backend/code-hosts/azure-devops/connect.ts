/**
 * Azure DevOps as code host, with plain fetch in its documented REST shapes (api-version 7.1, no
 * SDK; docs/decisions/009-code-hosts.md): the personal access token is checked against the project
 * (`GET {org}/_apis/projects/{project}`), then the project's Git repositories are listed
 * (`GET {org}/{project}/_apis/git/repositories`). The organisation URL is the operator's or the
 * user's (a company's Azure DevOps Server too), so nothing else is called (the identities host of
 * Azure DevOps Services excepted, for a command's permission): redirects are not followed. The
 * token goes only into the Authorization header, never into a message or the log.
 */

import type { Repository } from "../code-host.ts";
import { isObject } from "../github/api-client.ts";

/** How long one call to Azure DevOps may take. */
const AZURE_DEVOPS_TIMEOUT_MS = 10_000;
const API_VERSION = "7.1";
const BRANCH_PREFIX = "refs/heads/";

export interface AzureDevOpsProject {
  organizationUrl: string;
  project: string;
  personalAccessToken: string;
}

export class AzureDevOpsError extends Error {
  override name = "AzureDevOpsError";
  /**
   * "refused": the token was not accepted; "not-found": no such project; "unavailable": Azure
   * DevOps could not be reached; "bad-answer": it answered with an error or an unexpected body.
   */
  readonly reason: "refused" | "not-found" | "unavailable" | "bad-answer";

  constructor(reason: AzureDevOpsError["reason"], message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

const refused = () => new AzureDevOpsError("refused", "The personal access token was refused");

/** `{organizationUrl}/{...segments}?api-version=7.1&{query}`, keeping the organisation's own path. */
export function endpoint(
  organizationUrl: string,
  segments: string[],
  query: Record<string, string> = {},
): URL {
  const url = new URL(organizationUrl);
  url.search = "";
  url.hash = "";
  url.pathname = [url.pathname.replace(/\/+$/, ""), ...segments.map(encodeURIComponent)].join("/");
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  url.searchParams.set("api-version", API_VERSION);
  return url;
}

/**
 * A JSON call to Azure DevOps (GET, or POST with `body`); throws AzureDevOpsError on failure,
 * `notFound` its message for a 404.
 */
export async function azureDevOpsCall(
  target: AzureDevOpsProject,
  url: URL,
  what: string,
  {
    body,
    method = body === undefined ? "GET" : "POST",
    notFound = `Not found (${what})`,
  }: { body?: unknown; method?: "GET" | "POST" | "PATCH"; notFound?: string } = {},
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        accept: "application/json",
        authorization: `Basic ${Buffer.from(`:${target.personalAccessToken}`).toString("base64")}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: "manual",
      signal: AbortSignal.timeout(AZURE_DEVOPS_TIMEOUT_MS),
    });
  } catch (error) {
    throw new AzureDevOpsError("unavailable", `Azure DevOps could not be reached (${what})`, {
      cause: error,
    });
  }
  // A refused token may also answer 203 with an HTML sign-in page, or a redirect to one.
  if ([401, 403, 203].includes(response.status) || (response.status >= 300 && response.status < 400)) {
    throw refused();
  }
  if (response.status === 404) throw new AzureDevOpsError("not-found", notFound);
  if (!response.ok) {
    throw new AzureDevOpsError("bad-answer", `Azure DevOps answered ${response.status} (${what})`);
  }
  try {
    return await response.json();
  } catch (error) {
    throw new AzureDevOpsError("bad-answer", `Azure DevOps answered something other than JSON (${what})`, {
      cause: error,
    });
  }
}

/** Only http(s) links are kept: the web address becomes a link on the dashboard. */
const webLink = (value: unknown) =>
  typeof value === "string" && /^https?:$/.test(URL.parse(value)?.protocol ?? "") ? value : undefined;

function repositoryOf(entry: unknown, projectName: string, isPrivate: boolean): Repository | undefined {
  if (!isObject(entry) || typeof entry.id !== "string" || typeof entry.name !== "string") return undefined;
  const htmlUrl = webLink(entry.webUrl);
  if (!htmlUrl) return undefined;
  const branch = typeof entry.defaultBranch === "string" ? entry.defaultBranch : undefined;
  return {
    id: entry.id,
    name: entry.name,
    full_name: `${projectName}/${entry.name}`,
    private: isPrivate,
    description: null,
    // An empty repository has no default branch yet.
    default_branch: branch?.startsWith(BRANCH_PREFIX) ? branch.slice(BRANCH_PREFIX.length) : branch,
    fork: false,
    html_url: htmlUrl,
  };
}

/**
 * The project's id and its Git repositories; throws AzureDevOpsError for a refused token or an
 * unknown project.
 */
export async function azureDevOpsRepositories(
  target: AzureDevOpsProject,
): Promise<{ projectId: string; repositories: Repository[] }> {
  const { organizationUrl, project } = target;
  const notFound = "Project not found";
  const found = await azureDevOpsCall(
    target,
    endpoint(organizationUrl, ["_apis", "projects", project]),
    "project",
    { notFound },
  );
  if (!isObject(found) || typeof found.name !== "string" || typeof found.id !== "string") {
    throw new AzureDevOpsError("bad-answer", "Azure DevOps' project answer has no name or id");
  }
  const isPrivate = found.visibility !== "public";
  const list = await azureDevOpsCall(
    target,
    endpoint(organizationUrl, [project, "_apis", "git", "repositories"]),
    "repositories",
    { notFound },
  );
  if (!isObject(list) || !Array.isArray(list.value)) {
    throw new AzureDevOpsError("bad-answer", "Azure DevOps' repository list has no value");
  }
  const projectName = found.name;
  return {
    projectId: found.id,
    repositories: list.value.flatMap((entry) => repositoryOf(entry, projectName, isPrivate) ?? []),
  };
}

/** Azure DevOps' "Git Repositories" security namespace, and its Contribute permission bit. */
const GIT_REPOSITORIES_NAMESPACE = "2e9eb7ed-3c0a-47d4-87c1-0ffdd275fd87";
const GENERIC_CONTRIBUTE = 4;

/**
 * Where the organisation's identities are read: Azure DevOps Services keeps them on its `vssps`
 * host (`https://vssps.dev.azure.com/{org}`, `https://{org}.vssps.visualstudio.com`); Azure DevOps
 * Server on the collection itself.
 */
export function identityServiceUrl(organizationUrl: string): string {
  const url = new URL(organizationUrl);
  if (url.hostname === "dev.azure.com") url.hostname = "vssps.dev.azure.com";
  else {
    const legacy = /^([a-z0-9-]+)\.visualstudio\.com$/i.exec(url.hostname);
    if (legacy?.[1]) url.hostname = `${legacy[1]}.vssps.visualstudio.com`;
  }
  return url.toString();
}

/**
 * Whether the identity may contribute to the repository (Contribute, "GenericContribute", in the
 * Git Repositories namespace), as Azure DevOps evaluates it with groups and inheritance: the
 * identity's legacy descriptor is read (Identities - Read Identities), then the repository's ACL
 * for that descriptor with its effective permissions (Access Control Lists - Query,
 * `includeExtendedInfo`). An identity the answers do not name may not. Throws AzureDevOpsError
 * when it cannot be told (the token may lack the scopes to read identities or permissions).
 */
export async function mayContribute(
  target: AzureDevOpsProject,
  { projectId, repositoryId, identityId }: { projectId: string; repositoryId: string; identityId: string },
): Promise<boolean> {
  const identities = await azureDevOpsCall(
    target,
    endpoint(identityServiceUrl(target.organizationUrl), ["_apis", "identities"], {
      identityIds: identityId,
      queryMembership: "None",
    }),
    "identity",
  );
  const identity = isObject(identities) && Array.isArray(identities.value) ? identities.value[0] : undefined;
  if (!isObject(identity) || typeof identity.descriptor !== "string" || identity.id !== identityId) {
    return false;
  }
  const descriptor = identity.descriptor;
  const lists = await azureDevOpsCall(
    target,
    endpoint(target.organizationUrl, ["_apis", "accesscontrollists", GIT_REPOSITORIES_NAMESPACE], {
      token: `repoV2/${projectId}/${repositoryId}`,
      descriptors: descriptor,
      includeExtendedInfo: "true",
    }),
    "permissions",
  );
  const acl = isObject(lists) && Array.isArray(lists.value) ? lists.value[0] : undefined;
  const aces = isObject(acl) && isObject(acl.acesDictionary) ? acl.acesDictionary : {};
  const ace = aces[descriptor];
  const info = isObject(ace) && isObject(ace.extendedInfo) ? ace.extendedInfo : {};
  const allowed = typeof info.effectiveAllow === "number" ? info.effectiveAllow : 0;
  const denied = typeof info.effectiveDeny === "number" ? info.effectiveDeny : 0;
  return (allowed & GENERIC_CONTRIBUTE) !== 0 && (denied & GENERIC_CONTRIBUTE) === 0;
}
