/** An account that connected the sandbox code host through the API, for the sandbox route tests. */
import * as v from "valibot";
import { expect } from "vitest";
import type { Backend } from "../../backend/app.ts";
import { integrationResponseSchema, projectsResponseSchema } from "../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { sandboxConnectOf } from "../../shared/contract/sandbox.ts";
import { signedInAccount } from "./backend-sessions.ts";
import { bearerCalls } from "./test-backend.ts";

/** Signs `name` in, connects the sandbox as its GitHub Connect link does; answers its first sample repository. */
export async function sandboxConnectedAccount(backend: Backend, name: string) {
  const { get, post } = bearerCalls(() => backend.app);
  const account = await signedInAccount(backend, name);
  const github = v.parse(
    integrationResponseSchema,
    (await get(account.token, API_PATHS.integration("github"))).body,
  );
  // The link's installation id and the code the backend signed for this user, as its page hands them back.
  const connect = sandboxConnectOf(github.data.links.oauth_url);
  expect(
    (await post(account.token, API_PATHS.githubSetup, { org_id: account.orgId, ...connect })).status,
  ).toBe(200);
  const { projects } = v.parse(
    projectsResponseSchema,
    (await get(account.token, API_PATHS.projects)).body,
  ).data;
  const project = projects[0];
  if (!project) throw new Error("the sandbox imported nothing");
  return { ...account, project };
}
