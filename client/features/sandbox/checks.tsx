/**
 * The checks on a sandbox pull request's head commit, where GitHub shows them under the
 * conversation: the review's check, in progress while it runs, then what it found, with its run.
 */
import { CircleCheck, CircleMinus } from "lucide-react";
import type { SandboxCheck } from "../../../shared/contract/sandbox.ts";
import { Card, Spinner } from "../../components/ui";

const CONCLUSION_TEXT: Record<NonNullable<SandboxCheck["conclusion"]> | "running", string> = {
  running: "In progress",
  success: "Successful",
  neutral: "Neutral",
  skipped: "Skipped",
};

export function Checks({ checks }: { checks: SandboxCheck[] }) {
  if (checks.length === 0) return null;
  return (
    <Card as="section" aria-labelledby="checks-title" className="space-y-3 px-5 py-4">
      <h2 id="checks-title" className="font-semibold text-base text-fg">
        Checks
      </h2>
      <ul className="space-y-3">
        {checks.map((check) => (
          <li key={check.id} className="flex items-start gap-3 text-sm">
            <CheckIcon conclusion={check.conclusion} />
            <div className="min-w-0 flex-1 space-y-0.5">
              <p>
                <span className="font-medium text-fg">{check.name}</span>
                <span className="text-fg-muted">
                  {" "}
                  · {CONCLUSION_TEXT[check.conclusion ?? "running"]}: {check.title}
                </span>
              </p>
              <p className="text-fg-muted text-xs">{check.summary}</p>
            </div>
            <a
              href={check.detailsUrl}
              aria-label={`Details of ${check.name}`}
              className="focus-ring shrink-0 rounded-sm text-accent-text hover:underline"
            >
              Details
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function CheckIcon({ conclusion }: { conclusion: SandboxCheck["conclusion"] }) {
  if (conclusion === null) return <Spinner size="sm" className="mt-0.5 text-accent-text" />;
  return conclusion === "success" ? (
    <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success-text" />
  ) : (
    <CircleMinus aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-fg-muted" />
  );
}
