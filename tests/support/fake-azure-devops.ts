/**
 * A local stand-in for the two Azure DevOps REST calls of a setup, on a loopback port, answering in
 * Azure DevOps' documented shapes (api-version 7.1): GET /{org}/_apis/projects/{project} and
 * GET /{org}/{project}/_apis/git/repositories ({count, value}). Only Basic auth with an empty user
 * and the known personal access token is let in (401 otherwise); an unknown project answers 404
 * with Azure DevOps' TF200016 body. Point an organisation URL at `organizationUrl`; the server is
 * http, so the backend needs AZURE_DEVOPS_ALLOW_HTTP=true.
 *
 * For the review engine, a repository's pull requests (`pullRequests`, in its REST shapes):
 * GET …/repositories/{id}/pullrequests/{n}, GET …/diffs/commits (changed paths and the common
 * commit), POST …/filediffs (line blocks), GET …/items (a file's text at a commit, or with
 * `scopePath` and `recursionLevel=OneLevel` a folder's entries), GET and
 * POST …/pullRequests/{n}/threads (a thread's `status` and its comment's `usersLiked`, as people
 * left them), PATCH …/pullRequests/{n}/threads/{id} (a new `status`) and POST
 * …/pullRequests/{n}/statuses (a pull request status: state, description, context, target URL).
 *
 * For a bot command's permission check, the organisation's people (`addPerson`): GET
 * /{org}/_apis/identities?identityIds= (Identities - Read Identities: the legacy descriptor; an
 * unknown id answers a null entry) and GET /{org}/_apis/accesscontrollists/{Git Repositories
 * namespace}?token=repoV2/{project id}/{repository id}&descriptors=…&includeExtendedInfo=true
 * (Access Control Lists - Query, the effective permissions in `extendedInfo`). With
 * `canReadPermissions: false` the token lacks the scope for both (401, as Azure DevOps answers).
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const ORGANIZATION = "fabrikam";

export type FakeAzureThreadStatus = "active" | "fixed" | "wontFix" | "closed" | "byDesign" | "pending";

export interface FakeAzurePullRequest {
  pullRequestId: number;
  title: string;
  /** The author's unique name (an e-mail address, or `Build\\…` for a build identity). */
  author: string;
  isDraft?: boolean;
  status?: "active" | "abandoned" | "completed";
  source: { ref: string; commitId: string };
  target: { ref: string; commitId: string };
}

export interface FakeAzureChange {
  path: string;
  changeType: "add" | "edit" | "delete" | "rename";
  /** Line blocks of an edited file, as filediffs answers them. */
  blocks?: Array<{
    changeType: "add" | "delete" | "edit";
    originalLineNumberStart: number;
    originalLinesCount: number;
    modifiedLineNumberStart: number;
    modifiedLinesCount: number;
  }>;
}

export interface FakeAzurePullRequests {
  add(repositoryName: string, pullRequest: FakeAzurePullRequest): void;
  /** What diffs/commits answers from `base` to `target`; `common` is the merge base. */
  setDiff(base: string, target: string, common: string, changes: FakeAzureChange[]): void;
  setFile(commitId: string, path: string, content: string): void;
  /**
   * Threads posted, in order. A test sets what people did on one: its status ("wontFix" when they
   * chose Won't fix) and who liked its comment (unique names).
   */
  threads: Array<{
    pullRequestId: number;
    content: string;
    threadContext?: unknown;
    status?: FakeAzureThreadStatus;
    likedBy?: string[];
  }>;
  /** Pull request statuses posted, in order (Pull Request Statuses - Create). */
  statuses: Array<{
    pullRequestId: number;
    state: string;
    description: string;
    context: { name: string; genre: string };
    targetUrl: string | null;
  }>;
}

export interface FakeAzureDevOps {
  pullRequests: FakeAzurePullRequests;
  /** A repository's id by name. */
  repositoryId(name: string): string;
  /** The organisation's URL, as a user types it into the setup form. */
  organizationUrl: string;
  /** The project's id, as events name it. */
  projectId: string;
  /**
   * Someone of the organisation, who may contribute to every repository of the project or only
   * read it; answers their identity, as a comment event names its author.
   */
  addPerson(uniqueName: string, access: "contribute" | "read"): { id: string; uniqueName: string };
  personalAccessToken: string;
  project: string;
  /** The repositories' names, in the order they are listed. */
  repositoryNames: string[];
  /** Method and path of every call, in order. */
  calls: string[];
  close(): Promise<void>;
}

/**
 * The `integrations` row of `azure` for `orgId` as an earlier version stored it: no service hook, no
 * project id, and the personal access token as `storedToken` (by default in plain text).
 */
export function integrationRowBeforeHooks(
  azure: FakeAzureDevOps,
  orgId: string,
  storedToken = azure.personalAccessToken,
) {
  return {
    org_id: orgId,
    name: "azure-devops",
    integration_key: "azure-devops",
    properties: JSON.stringify({ organization_url: azure.organizationUrl, project: azure.project }),
    secrets: JSON.stringify({ personal_access_token: storedToken }),
  };
}

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

/** The Git Repositories security namespace, and its permission bits for a contributor and a reader. */
const GIT_NAMESPACE = "2e9eb7ed-3c0a-47d4-87c1-0ffdd275fd87";
const CONTRIBUTOR_BITS = 2 | 4 | 16 | 32 | 64 | 16384;
const READER_BITS = 2;

export async function startFakeAzureDevOps(
  options: {
    project?: string;
    repositoryNames?: string[];
    visibility?: "private" | "public";
    canReadPermissions?: boolean;
  } = {},
): Promise<FakeAzureDevOps> {
  const personalAccessToken = `pat${randomUUID().replaceAll("-", "")}`;
  const projectName = options.project ?? "Fabrikam Fiber";
  const repositoryNames = options.repositoryNames ?? ["fabrikam-web", "fabrikam-api", "empty-repo"];
  const calls: string[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const organizationUrl = `${origin}/${ORGANIZATION}`;
  const projectUrl = `${organizationUrl}/_apis/projects/${encodeURIComponent(projectName)}`;
  const project = {
    id: randomUUID(),
    name: projectName,
    url: projectUrl,
    state: "wellFormed",
    revision: 11,
    visibility: options.visibility ?? "private",
  };
  const repositories = repositoryNames.map((name) => {
    const id = randomUUID();
    const repository = {
      id,
      name,
      url: `${organizationUrl}/${project.id}/_apis/git/repositories/${id}`,
      project,
      // Azure DevOps leaves out the default branch of a repository with no commits.
      ...(name === "empty-repo" ? {} : { defaultBranch: "refs/heads/main" }),
      size: 1024,
      remoteUrl: `${organizationUrl}/${encodeURIComponent(projectName)}/_git/${name}`,
      webUrl: `${organizationUrl}/${encodeURIComponent(projectName)}/_git/${name}`,
      isDisabled: false,
    };
    return repository;
  });
  const pulls = new Map<string, FakeAzurePullRequest & { repositoryId: string }>();
  const diffs = new Map<string, { common: string; changes: FakeAzureChange[] }>();
  const files = new Map<string, string>();
  const pullRequests: FakeAzurePullRequests = {
    threads: [],
    statuses: [],
    add(repositoryName, pullRequest) {
      const repository = repositories.find((candidate) => candidate.name === repositoryName);
      if (!repository) throw new Error(`No repository ${repositoryName}`);
      pulls.set(`${repository.id}/${pullRequest.pullRequestId}`, {
        ...pullRequest,
        repositoryId: repository.id,
      });
    },
    setDiff(base, target, common, changes) {
      diffs.set(`${base}...${target}`, { common, changes });
    },
    setFile(commitId, path, content) {
      files.set(`${commitId}:${path}`, content);
    },
  };
  const identity = (uniqueName: string) => ({
    id: randomUUID(),
    displayName: uniqueName.split("@")[0],
    uniqueName,
    url: `${organizationUrl}/_apis/Identities/${uniqueName}`,
    imageUrl: `${organizationUrl}/_api/_common/identityImage?id=${uniqueName}`,
  });

  /** The review engine's calls under /{org}/{project}/_apis/git/repositories/{id}/…; true when answered. */
  async function reviewCall(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const match = /^\/[^/]+\/[^/]+\/_apis\/git\/repositories\/([^/]+)\/(.+)$/.exec(url.pathname);
    const repository = repositories.find((candidate) => candidate.id === match?.[1]);
    if (!match || !repository) return false;
    const rest = match[2] ?? "";
    const statusesOf = /^pull[Rr]equests\/(\d+)\/statuses$/.exec(rest);
    const statusPull = statusesOf ? pulls.get(`${repository.id}/${statusesOf[1]}`) : undefined;
    if (statusesOf && req.method === "POST") {
      if (!statusPull) {
        send(res, 404, { $id: "1", message: `TF401180: The requested pull request was not found.` });
        return true;
      }
      // Pull Request Statuses - Create: the status as stored, with its id and who posted it.
      const body = JSON.parse((await text(req)) || "{}") as {
        state?: string;
        description?: string;
        context?: { name?: string; genre?: string };
        targetUrl?: string;
      };
      if (!body.context?.name) {
        send(res, 400, { $id: "1", message: "The status context name is required." });
        return true;
      }
      const status = {
        pullRequestId: statusPull.pullRequestId,
        state: body.state ?? "notSet",
        description: body.description ?? "",
        context: { name: body.context.name, genre: body.context.genre ?? "" },
        targetUrl: body.targetUrl ?? null,
      };
      pullRequests.statuses.push(status);
      const { pullRequestId: _pull, ...stored } = status;
      send(res, 200, {
        id: pullRequests.statuses.length,
        ...stored,
        creationDate: "2026-11-20T10:00:00Z",
        updatedDate: "2026-11-20T10:00:00Z",
        createdBy: identity("argus@example.com"),
      });
      return true;
    }
    const pull = /^pull[Rr]equests\/(\d+)(\/threads)?(?:\/(\d+))?$/.exec(rest);
    const found = pull ? pulls.get(`${repository.id}/${pull[1]}`) : undefined;
    if (pull && !found) {
      send(res, 404, { $id: "1", message: `TF401180: The requested pull request was not found.` });
      return true;
    }
    if (found && !pull?.[2] && req.method === "GET") {
      send(res, 200, {
        repository,
        pullRequestId: found.pullRequestId,
        codeReviewId: found.pullRequestId,
        status: found.status ?? "active",
        createdBy: identity(found.author),
        creationDate: "2026-11-20T10:00:00Z",
        title: found.title,
        description: "",
        sourceRefName: `refs/heads/${found.source.ref}`,
        targetRefName: `refs/heads/${found.target.ref}`,
        mergeStatus: "succeeded",
        isDraft: found.isDraft ?? false,
        mergeId: randomUUID(),
        lastMergeSourceCommit: {
          commitId: found.source.commitId,
          url: `${repository.url}/commits/${found.source.commitId}`,
        },
        lastMergeTargetCommit: {
          commitId: found.target.commitId,
          url: `${repository.url}/commits/${found.target.commitId}`,
        },
        reviewers: [],
        url: `${repository.url}/pullRequests/${found.pullRequestId}`,
        supportsIterations: true,
      });
      return true;
    }
    if (found && pull?.[3] && req.method === "PATCH") {
      // Pull Request Threads - Update: the thread's status (its id as GET lists it).
      const own = pullRequests.threads.filter((thread) => thread.pullRequestId === found.pullRequestId);
      const thread = own[Number(pull[3]) - 1];
      if (!thread) {
        send(res, 404, { $id: "1", message: "TF401181: The requested thread was not found." });
        return true;
      }
      const body = JSON.parse((await text(req)) || "{}") as { status?: FakeAzureThreadStatus };
      if (body.status) thread.status = body.status;
      send(res, 200, { id: Number(pull[3]), status: thread.status ?? "active" });
      return true;
    }
    if (found && pull?.[2] && !pull[3] && req.method === "GET") {
      const value = pullRequests.threads
        .filter((thread) => thread.pullRequestId === found.pullRequestId)
        .map((thread, index) => ({
          id: index + 1,
          publishedDate: "2026-11-20T10:00:00Z",
          lastUpdatedDate: "2026-11-20T10:00:00Z",
          comments: [
            {
              id: 1,
              parentCommentId: 0,
              author: identity("argus@example.com"),
              content: thread.content,
              publishedDate: "2026-11-20T10:00:00Z",
              lastUpdatedDate: "2026-11-20T10:00:00Z",
              commentType: "text",
              usersLiked: (thread.likedBy ?? []).map(identity),
            },
          ],
          status: thread.status ?? "active",
          threadContext: thread.threadContext ?? null,
          isDeleted: false,
        }));
      send(res, 200, { value, count: value.length });
      return true;
    }
    if (found && pull?.[2] && !pull[3] && req.method === "POST") {
      const body = JSON.parse((await text(req)) || "{}") as {
        comments?: Array<{ content?: string }>;
        threadContext?: unknown;
      };
      const thread = {
        pullRequestId: found.pullRequestId,
        content: body.comments?.[0]?.content ?? "",
        ...(body.threadContext ? { threadContext: body.threadContext } : {}),
      };
      pullRequests.threads.push(thread);
      send(res, 200, { id: pullRequests.threads.length, status: "active", ...thread });
      return true;
    }
    if (rest === "diffs/commits" && req.method === "GET") {
      const base = url.searchParams.get("baseVersion") ?? "";
      const target = url.searchParams.get("targetVersion") ?? "";
      const diff = diffs.get(`${base}...${target}`);
      if (!diff) {
        send(res, 404, { $id: "1", message: "TF401175: The version descriptor could not be resolved." });
        return true;
      }
      send(res, 200, {
        allChangesIncluded: true,
        changeCounts: {},
        changes: diff.changes.map((change) => ({
          item: {
            objectId: randomUUID(),
            gitObjectType: "blob",
            path: change.path,
            url: `${repository.url}/items${change.path}`,
          },
          changeType: change.changeType,
        })),
        commonCommit: diff.common,
        baseCommit: base,
        targetCommit: target,
        aheadCount: 1,
        behindCount: 0,
      });
      return true;
    }
    if (rest === "filediffs" && req.method === "POST") {
      const body = JSON.parse((await text(req)) || "{}") as {
        baseVersionCommit?: string;
        targetVersionCommit?: string;
        fileDiffParams?: Array<{ path?: string; originalPath?: string }>;
      };
      const diff = [...diffs.values()].find((entry) => entry.common === body.baseVersionCommit);
      send(
        res,
        200,
        (body.fileDiffParams ?? []).map((params) => ({
          path: params.path,
          originalPath: params.originalPath,
          lineDiffBlocks: diff?.changes.find((change) => change.path === params.path)?.blocks ?? [],
        })),
      );
      return true;
    }
    if (rest === "items" && req.method === "GET" && url.searchParams.has("scopePath")) {
      // A folder's entries (recursionLevel=OneLevel): the folder itself first, then each entry.
      const folder = (url.searchParams.get("scopePath") ?? "").replace(/\/+$/, "");
      const commitId = url.searchParams.get("versionDescriptor.version") ?? "";
      const inside = [...files.keys()].flatMap((entry) => {
        const at = entry.indexOf(":");
        const path = entry.slice(at + 1);
        return entry.slice(0, at) === commitId && path.startsWith(`${folder}/`) ? [path] : [];
      });
      if (inside.length === 0) {
        send(res, 404, {
          $id: "1",
          message: `TF401174: The item '${folder}' could not be found in the repository.`,
        });
        return true;
      }
      const entries = new Map<string, boolean>();
      for (const path of inside) {
        const rest = path.slice(folder.length + 1);
        entries.set(`${folder}/${rest.split("/")[0]}`, rest.includes("/"));
      }
      const item = (path: string, isFolder: boolean) => ({
        objectId: randomUUID(),
        gitObjectType: isFolder ? "tree" : "blob",
        commitId,
        path,
        ...(isFolder ? { isFolder: true } : {}),
        url: `${repository.url}/items${path}?versionType=Commit&version=${commitId}`,
      });
      const value = [item(folder, true), ...[...entries].map(([path, isFolder]) => item(path, isFolder))];
      send(res, 200, { count: value.length, value });
      return true;
    }
    if (rest === "items" && req.method === "GET") {
      const path = url.searchParams.get("path") ?? "";
      const commitId = url.searchParams.get("versionDescriptor.version") ?? "";
      const content = files.get(`${commitId}:${path}`);
      if (content === undefined) {
        send(res, 404, {
          $id: "1",
          message: `TF401174: The item '${path}' could not be found in the repository.`,
        });
        return true;
      }
      send(res, 200, {
        objectId: randomUUID(),
        gitObjectType: "blob",
        commitId,
        path,
        contentMetadata: { fileName: path.split("/").at(-1), encoding: 65001, isBinary: false },
        content,
        url: `${repository.url}/items${path}?versionType=Commit&version=${commitId}`,
      });
      return true;
    }
    return false;
  }

  const people = new Map<string, { uniqueName: string; descriptor: string; access: "contribute" | "read" }>();

  /** Identities and permissions under /{org}/_apis/…; true when answered. */
  function permissionCall(res: ServerResponse, url: URL): boolean {
    if (url.pathname === `/${ORGANIZATION}/_apis/identities`) {
      if (options.canReadPermissions === false) return refuse(res);
      const ids = (url.searchParams.get("identityIds") ?? "").split(",").filter(Boolean);
      const value = ids.map((id) => {
        const person = people.get(id);
        return person
          ? {
              id,
              descriptor: person.descriptor,
              subjectDescriptor: `aad.${Buffer.from(id).toString("base64url")}`,
              providerDisplayName: person.uniqueName.split("@")[0],
              isActive: true,
              members: [],
              memberOf: [],
              properties: { Account: { $type: "System.String", $value: person.uniqueName } },
            }
          : null;
      });
      send(res, 200, { count: value.length, value });
      return true;
    }
    if (url.pathname === `/${ORGANIZATION}/_apis/accesscontrollists/${GIT_NAMESPACE}`) {
      if (options.canReadPermissions === false) return refuse(res);
      const token = url.searchParams.get("token") ?? "";
      const descriptors = (url.searchParams.get("descriptors") ?? "").split(",").filter(Boolean);
      const [, projectOfToken, repositoryOfToken] = token.split("/");
      const known =
        projectOfToken === project.id &&
        repositories.some((repository) => repository.id === repositoryOfToken);
      const extended = url.searchParams.get("includeExtendedInfo") === "true";
      const acesDictionary = Object.fromEntries(
        descriptors.map((descriptor) => {
          const person = [...people.values()].find((candidate) => candidate.descriptor === descriptor);
          const bits =
            !known || !person ? 0 : person.access === "contribute" ? CONTRIBUTOR_BITS : READER_BITS;
          return [
            descriptor,
            {
              descriptor,
              allow: 0,
              deny: 0,
              ...(extended
                ? {
                    extendedInfo: {
                      effectiveAllow: bits,
                      effectiveDeny: 0,
                      inheritedAllow: bits,
                      inheritedDeny: 0,
                    },
                  }
                : {}),
            },
          ];
        }),
      );
      send(res, 200, {
        count: 1,
        value: [{ inheritPermissions: true, token, acesDictionary, includeExtendedInfo: extended }],
      });
      return true;
    }
    return false;
  }

  function refuse(res: ServerResponse): true {
    res.writeHead(401, { "www-authenticate": 'Basic realm="https://dev.azure.com/"' });
    res.end();
    return true;
  }

  const expectedAuthorization = `Basic ${Buffer.from(`:${personalAccessToken}`).toString("base64")}`;

  server.on("request", async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    calls.push(`${req.method} ${decodeURIComponent(url.pathname)}`);
    if (req.headers.authorization !== expectedAuthorization) {
      // Azure DevOps answers a bad token with an empty 401 and a Basic challenge.
      res.writeHead(401, { "www-authenticate": 'Basic realm="https://dev.azure.com/"' });
      res.end();
      return;
    }
    if (url.searchParams.get("api-version") === "7.1" && (await reviewCall(req, res, url))) return;
    if (req.method === "GET" && url.searchParams.get("api-version") === "7.1" && permissionCall(res, url))
      return;
    if (req.method !== "GET" || url.searchParams.get("api-version") !== "7.1") {
      send(res, 400, { $id: "1", message: "The requested REST API version is not supported." });
      return;
    }
    // /{org}/_apis/projects/{project} or /{org}/{project}/_apis/git/repositories
    const [, organization, ...rest] = url.pathname.split("/").map(decodeURIComponent);
    const asksProject = rest.length === 3 && rest[0] === "_apis" && rest[1] === "projects";
    const asksRepositories = rest.length === 4 && rest.slice(1).join("/") === "_apis/git/repositories";
    const projectAsked = asksProject ? rest[2] : asksRepositories ? rest[0] : undefined;
    if (organization !== ORGANIZATION || projectAsked === undefined) {
      send(res, 404, { $id: "1", message: "The resource cannot be found." });
    } else if (projectAsked.toLowerCase() !== projectName.toLowerCase()) {
      send(res, 404, {
        $id: "1",
        innerException: null,
        message: `TF200016: The following project does not exist: ${projectAsked}. Verify that the name of the project is correct and that the project exists on the specified Azure DevOps Server.`,
        typeName:
          "Microsoft.TeamFoundation.Core.WebApi.ProjectDoesNotExistWithNameException, Microsoft.TeamFoundation.Core.WebApi",
        typeKey: "ProjectDoesNotExistWithNameException",
        errorCode: 0,
        eventId: 3000,
      });
    } else if (asksProject) {
      send(res, 200, project);
    } else {
      send(res, 200, { count: repositories.length, value: repositories });
    }
  });

  return {
    pullRequests,
    repositoryId: (name) => repositories.find((repository) => repository.name === name)?.id ?? "",
    organizationUrl,
    projectId: project.id,
    addPerson(uniqueName, access) {
      const id = randomUUID();
      people.set(id, {
        uniqueName,
        access,
        descriptor: `Microsoft.IdentityModel.Claims.ClaimsIdentity;${ORGANIZATION}\\${uniqueName}`,
      });
      return { id, uniqueName };
    },
    personalAccessToken,
    project: projectName,
    repositoryNames,
    calls,
    async close() {
      server.close();
      server.closeAllConnections();
      await once(server, "close");
    },
  };
}
