/**
 * A local stand-in for the two Azure DevOps REST calls of a setup, on a loopback port, answering in
 * Azure DevOps' documented shapes (api-version 7.1): GET /{org}/_apis/projects/{project} and
 * GET /{org}/{project}/_apis/git/repositories ({count, value}). Only Basic auth with an empty user
 * and the known personal access token is let in (401 otherwise); an unknown project answers 404
 * with Azure DevOps' TF200016 body. Point an organisation URL at `organizationUrl`; the server is
 * http, so the backend needs AZURE_DEVOPS_ALLOW_HTTP=true.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const ORGANIZATION = "fabrikam";

export interface FakeAzureDevOps {
  /** The organisation's URL, as a user types it into the setup form. */
  organizationUrl: string;
  personalAccessToken: string;
  project: string;
  /** The repositories' names, in the order they are listed. */
  repositoryNames: string[];
  /** Method and path of every call, in order. */
  calls: string[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

export async function startFakeAzureDevOps(
  options: { project?: string; repositoryNames?: string[]; visibility?: "private" | "public" } = {},
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
  const expectedAuthorization = `Basic ${Buffer.from(`:${personalAccessToken}`).toString("base64")}`;

  server.on("request", (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    calls.push(`${req.method} ${decodeURIComponent(url.pathname)}`);
    if (req.headers.authorization !== expectedAuthorization) {
      // Azure DevOps answers a bad token with an empty 401 and a Basic challenge.
      res.writeHead(401, { "www-authenticate": 'Basic realm="https://dev.azure.com/"' });
      res.end();
      return;
    }
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
    organizationUrl,
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
