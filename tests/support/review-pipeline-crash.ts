/**
 * The review pipeline as the app wires it, against a fake GitHub named by its address and app
 * credentials: shared by the crash test and the process it kills (review-pipeline-crash-child.ts).
 */
import { systemClock } from "../../backend/billing/clock.ts";
import { githubReviewHosts } from "../../backend/code-hosts/github/review-adapter.ts";
import { reviewHostFor } from "../../backend/code-hosts/registry.ts";
import type { Db } from "../../backend/db/database.ts";
import { createReviewPipeline } from "../../backend/review/pipeline/pipeline.ts";
import { createSecretBox } from "../../backend/secrets/secret-box.ts";
import { effectiveSettings } from "../../backend/settings/effective.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { testMarkers } from "./review-markers.ts";

export interface FakeGitHubApp {
  url: string;
  appId: string;
  privateKey: string;
}

export function githubPipeline(db: Db, github: FakeGitHubApp) {
  return createReviewPipeline({
    db,
    hostFor: reviewHostFor({
      db,
      // GitHub only: no Azure DevOps token is opened.
      secrets: createSecretBox({ key: undefined, previousKeys: [], keyFile: undefined }),
      logger: createLogger({ name: "review-pipeline-crash", level: "silent" }),
      github: githubReviewHosts({ appId: github.appId, privateKey: github.privateKey, apiUrl: github.url }),
    }),
    settings: effectiveSettings,
    clock: systemClock,
    productName: "Argus",
    publicOrigin: "https://argus.test",
    // One key for the crashed process and the one that retries: each reads what the other posted.
    markers: testMarkers,
  });
}
