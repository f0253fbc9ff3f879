/** The organisation's contributors: the list and adding one by username (docs/product.md#contributors-and-seats). */

import type { Router } from "express";
import type * as v from "valibot";
import { API_PATHS } from "../../shared/contract/common.ts";
import {
  addContributorRequestSchema,
  type addContributorResponseSchema,
  CONTRIBUTOR_MESSAGES,
  type contributorSuggestionsResponseSchema,
  contributorsQuerySchema,
  type contributorsResponseSchema,
} from "../../shared/contract/contributors.ts";
import { sessionOf } from "../auth/require-session.ts";
import type { InstallationFlow } from "../code-hosts/code-host.ts";
import { codeHostFailure } from "../code-hosts/failures.ts";
import { githubInstallationOf } from "../code-hosts/github/installations.ts";
import { addContributor, listContributors } from "../contributors/contributors.ts";
import type { ContributorImport } from "../contributors/import.ts";
import type { Db } from "../db/database.ts";
import { HttpError } from "../http/errors.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";

export function contributorsRouter(
  db: Db,
  installations: InstallationFlow,
  imports: ContributorImport,
): Router {
  const router = strictRouter();

  router.get(API_PATHS.contributors, async (req, res) => {
    const query = parseRequest(contributorsQuerySchema, req.query, "query");
    const orgId = sessionOf(res).org.id;
    // The stored list is still worth showing when the code host is down; the next call retries.
    await imports.refreshIfStale(orgId).catch((error: unknown) => {
      req.log.warn({ err: error }, "contributors: import from the code host failed");
    });
    const { contributors, page } = await listContributors(db, orgId, query);
    res.json({
      success: true,
      data: contributors,
      page,
    } satisfies v.InferInput<typeof contributorsResponseSchema>);
  });

  router.get(API_PATHS.contributorSuggestions, async (_req, res) => {
    const installationId = await githubInstallationOf(db, sessionOf(res).org.id);
    const people = installationId
      ? await installations.knownPeople(installationId).catch((error: unknown) => {
          throw codeHostFailure(error);
        })
      : null;
    res.json({
      success: true,
      data: (people ?? [])
        .map((person) => ({ platform_id: person.login, name: person.name ?? person.login }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    } satisfies v.InferInput<typeof contributorSuggestionsResponseSchema>);
  });

  router.post(API_PATHS.addContributor, async (req, res) => {
    const { platform_id: username } = parseRequest(addContributorRequestSchema, req.body);
    const orgId = sessionOf(res).org.id;
    const installationId = await githubInstallationOf(db, orgId);
    if (!installationId) {
      throw new HttpError(409, { error: "Connect GitHub before adding contributors." });
    }
    const person = await installations.lookupUser(installationId, username).catch((error: unknown) => {
      throw codeHostFailure(error);
    });
    if (!person) {
      throw new HttpError(404, {
        error:
          installations.kind === "sandbox"
            ? `The sandbox code host has no user named "${username}". Pick one of its people from the list.`
            : `GitHub has no user named "${username}".`,
      });
    }
    const { created, contributor } = await addContributor(db, orgId, person);
    res.json({
      success: true,
      created,
      message: created ? CONTRIBUTOR_MESSAGES.added : CONTRIBUTOR_MESSAGES.updated,
      data: contributor,
    } satisfies v.InferInput<typeof addContributorResponseSchema>);
  });

  return router;
}
