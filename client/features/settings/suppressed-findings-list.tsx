/** The list of a repository's suppressed findings and its calls (suppressed-findings.tsx loads it). */
import { RotateCcw, ThumbsDown } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import {
  SUPPRESSED_FINDINGS_PATHS,
  type SuppressedFinding,
  type suppressedFindingsResponseSchema,
} from "../../../shared/contract/reviews.ts";
import { Alert, Button, useToast } from "../../components/ui";
import { browserApiClient } from "../../lib/browser-api";
import { formatDateTime } from "../../lib/formats";
import { findingPlace } from "../reviews/finding-details";
import { SeverityBadge } from "../reviews/run-status";

const api = browserApiClient();

const TEXT = {
  loading: "Loading the findings marked as noise…",
  none: "No finding is marked as noise in this repository.",
  failed: "The findings marked as noise could not be loaded.",
  release: "Post it again",
  released: "The finding will be posted again",
  releaseFailed: "Could not post the finding again. Please try again.",
} as const;

type Listing = { kind: "loading" } | { kind: "failed" } | { kind: "loaded"; findings: SuppressedFinding[] };

/** Where the finding is, and what a screen reader hears its button name it by. */
function describe({ finding, fingerprint }: SuppressedFinding): { place: string; name: string } {
  // No run kept it (decision 058): only its fingerprint is known.
  if (!finding) return { place: "Place unknown", name: `the finding ${fingerprint.slice(0, 12)}` };
  const place = findingPlace(finding);
  return { place, name: `${finding.ruleId} in ${place}` };
}

export function SuppressedFindingsList({ repositoryId }: { repositoryId: string }) {
  const { toast } = useToast();
  const [listing, setListing] = useState<Listing>({ kind: "loading" });
  const [releasing, setReleasing] = useState<string | null>(null);

  const load = useCallback(async () => {
    setListing({ kind: "loading" });
    try {
      const answer = await api.call<typeof suppressedFindingsResponseSchema>(
        SUPPRESSED_FINDINGS_PATHS.list(repositoryId),
      );
      setListing({ kind: "loaded", findings: answer.data.findings });
    } catch {
      setListing({ kind: "failed" });
    }
  }, [repositoryId]);

  useEffect(() => {
    void load();
  }, [load]);

  async function release(fingerprint: string) {
    setReleasing(fingerprint);
    try {
      await api.call(SUPPRESSED_FINDINGS_PATHS.one(repositoryId, fingerprint), { method: "DELETE" });
      setListing((now) =>
        now.kind === "loaded"
          ? { kind: "loaded", findings: now.findings.filter((entry) => entry.fingerprint !== fingerprint) }
          : now,
      );
      toast({ tone: "success", title: TEXT.released });
    } catch {
      toast({ tone: "danger", title: TEXT.releaseFailed });
    } finally {
      setReleasing(null);
    }
  }

  if (listing.kind === "loading") {
    return (
      <p role="status" className="text-fg-muted text-sm">
        {TEXT.loading}
      </p>
    );
  }
  if (listing.kind === "failed") {
    return (
      <Alert tone="danger">
        <span className="flex flex-wrap items-center gap-3">
          {TEXT.failed}
          <Button
            variant="secondary"
            size="sm"
            icon={<RotateCcw aria-hidden="true" />}
            onClick={() => void load()}
          >
            Retry
          </Button>
        </span>
      </Alert>
    );
  }
  if (listing.findings.length === 0) return <p className="text-fg-muted text-sm">{TEXT.none}</p>;
  return (
    <ul className="divide-y divide-border rounded-lg border border-border bg-surface">
      {listing.findings.map((entry) => (
        <li
          key={entry.fingerprint}
          className="flex flex-wrap items-start justify-between gap-3 px-5 py-3 text-sm"
        >
          <div className="min-w-0 flex-1 space-y-1">
            <p className="flex flex-wrap items-center gap-2">
              {entry.finding ? <SeverityBadge severity={entry.finding.severity} /> : null}
              <span className="font-mono text-fg">{describe(entry).place}</span>
              <span className="font-mono text-fg-muted text-xs">
                {entry.finding?.ruleId ?? entry.fingerprint.slice(0, 12)}
              </span>
            </p>
            {entry.finding ? <p className="text-fg">{entry.finding.message}</p> : null}
            <p className="flex items-center gap-1 text-fg-muted text-xs">
              <ThumbsDown aria-hidden="true" className="size-3.5" />
              <span>
                {entry.feedback.thumbsDown} <span className="sr-only">marked it as noise</span>· suppressed{" "}
                {formatDateTime(entry.suppressedAt)}
              </span>
            </p>
          </div>
          <Button
            variant="secondary"
            size="sm"
            loading={releasing === entry.fingerprint}
            disabled={releasing !== null}
            aria-label={`${TEXT.release}: ${describe(entry).name}`}
            onClick={() => void release(entry.fingerprint)}
          >
            {TEXT.release}
          </Button>
        </li>
      ))}
    </ul>
  );
}
