/**
 * When contributors are imported from the code host: right after GitHub is connected, and when the
 * list is asked for and this process has not imported the organisation's within
 * CONTRIBUTOR_IMPORT_TTL_MS (so a restart or a new day's commits show up without a button). An
 * import only adds and updates rows, so two running at once do no harm.
 */

import type { InstallationFlow } from "../code-hosts/code-host.ts";
import { githubInstallationOf } from "../code-hosts/github/installations.ts";
import type { Db } from "../db/database.ts";
import { githubRepositoriesOf, importContributors } from "./contributors.ts";

export const CONTRIBUTOR_IMPORT_TTL_MS = 10 * 60_000;

export interface ContributorImport {
  /** Imports the people of the installation's `repositories` now; throws the code host's failure. */
  run(orgId: string, installationId: string, repositories: readonly { full_name: string }[]): Promise<void>;
  /** Imports unless done within the TTL; nothing while GitHub is not connected. */
  refreshIfStale(orgId: string): Promise<void>;
}

export function createContributorImport(
  db: Db,
  installations: InstallationFlow,
  now: () => number = Date.now,
): ContributorImport {
  /** Organisation id → when its last import succeeded. Per process: a restart imports again. */
  const importedAt = new Map<string, number>();

  async function run(orgId: string, installationId: string, repositories: readonly { full_name: string }[]) {
    await importContributors(db, orgId, await installations.contributors(installationId, repositories));
    importedAt.set(orgId, now());
  }

  return {
    run,
    async refreshIfStale(orgId) {
      const last = importedAt.get(orgId);
      if (last !== undefined && now() - last < CONTRIBUTOR_IMPORT_TTL_MS) return;
      const installationId = await githubInstallationOf(db, orgId);
      if (installationId) await run(orgId, installationId, await githubRepositoriesOf(db, orgId));
    },
  };
}
