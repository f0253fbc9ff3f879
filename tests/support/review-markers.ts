/**
 * The review engine's signed markers (backend/review/pipeline/markers.ts) as tests sign them: one fixed
 * secrets key, so a test and the processes it starts (a crash and its retry) agree on what the
 * engine wrote.
 */
import { deploymentMarkers, type PullRequestMarkers } from "../../backend/review/pipeline/markers.ts";
import type { PullRequestRef } from "../../backend/review/queue/pull-requests.ts";
import type { SecretsConfig } from "../../backend/secrets/keys.ts";

export const TEST_SECRETS: SecretsConfig = { key: Buffer.alloc(32, 9), previousKeys: [], keyFile: undefined };

export const testMarkers = deploymentMarkers(TEST_SECRETS);

/** The markers of pull request `pullRequest` of project `projectId`, signed with the test key. */
export const testMarkersOf = (projectId: string, pullRequest: number): Promise<PullRequestMarkers> =>
  testMarkers({ projectId, pullRequest } satisfies PullRequestRef);
