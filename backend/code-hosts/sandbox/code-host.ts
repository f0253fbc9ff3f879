/**
 * The sandbox as a code host: it stands in for GitHub when no App is configured (its installations
 * are integration "github" with a `sandbox-` key, connect.ts), and reviews the sample repositories
 * imported with `sandbox: true` from the pull requests kept in the database (review-adapter.ts,
 * pulls-route.ts).
 */
import { hkdfSync } from "node:crypto";
import { currentSecretsKey } from "../../secrets/keys.ts";
import { GITHUB_INTEGRATION } from "../catalogue.ts";
import type { CodeHost } from "../code-host.ts";
import { createSandboxInstallations } from "./connect.ts";
import { createSandboxReviewHost } from "./review-adapter.ts";

export const sandboxCodeHost = {
  name: "sandbox",
  integration: GITHUB_INTEGRATION,
  connect: {
    kind: "installation",
    installations: async ({ publicOrigin, secrets }) =>
      createSandboxInstallations({
        publicOrigin,
        // Its Connect links' codes (decision 027): derived from the secrets key, so every instance
        // on that key accepts them and they survive a restart.
        codeKey: Buffer.from(
          hkdfSync("sha256", await currentSecretsKey(secrets), "", "argus sandbox installation codes", 32),
        ),
      }),
  },
  claims: (project) => project.integration_name === GITHUB_INTEGRATION && project.properties.sandbox === true,
  // Its repositories' links name GitHub, where they do not exist; its pull request page shows the diff.
  commitUrl: () => null,
  reviewHost: async (project, { db }) => createSandboxReviewHost(db, project),
} satisfies CodeHost;
