/**
 * The run's decision log as a timeline (docs/product.md#reviewsrunid): each step with its outcome
 * in words and how long it took, its details folded in a native disclosure (keyboard and screen
 * readers know <details> as they are). The words come from the loader (decision-timeline.server.ts).
 */
import { Circle, CircleCheck, CircleSlash, CircleX } from "lucide-react";
import { formatDateTime } from "../../lib/formats";
import type { StepTone, TimelineStep } from "./decision-timeline.server";
import { durationText } from "./run-status";

const TONE_ICONS: Record<StepTone, { Icon: typeof Circle; className: string }> = {
  success: { Icon: CircleCheck, className: "text-success-text" },
  warning: { Icon: CircleSlash, className: "text-warning-text" },
  danger: { Icon: CircleX, className: "text-danger-text" },
  neutral: { Icon: Circle, className: "text-fg-subtle" },
};

export function DecisionTimeline({ steps }: { steps: TimelineStep[] }) {
  return (
    <ol className="px-6 py-4">
      {steps.map((step, index) => {
        const { Icon, className } = TONE_ICONS[step.tone];
        return (
          // The log only grows, so a step's place is its identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: steps repeat (one per reviewer), in order
          <li key={index} className="relative flex gap-3 pb-4 text-sm last:pb-0">
            {index < steps.length - 1 ? (
              <span aria-hidden="true" className="absolute top-5 bottom-0 left-2 w-px bg-border" />
            ) : null}
            <Icon aria-hidden="true" className={`relative mt-0.5 size-4 shrink-0 bg-surface ${className}`} />
            <div className="min-w-0 flex-1 space-y-0.5">
              <p className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-medium text-fg">{step.title}</span>
                <span className="text-fg">{step.outcome}</span>
              </p>
              <p className="flex flex-wrap gap-x-2 text-fg-muted text-xs">
                <span className="font-mono">{step.step}</span>
                {step.durationMs === null ? null : (
                  <span>
                    <span className="sr-only">Took </span>
                    {durationText(step.durationMs)}
                  </span>
                )}
                <time dateTime={step.at}>{formatDateTime(step.at)}</time>
              </p>
              {step.details.length ? (
                <details className="group text-xs">
                  <summary className="focus-ring w-fit cursor-pointer rounded-sm text-accent-text hover:underline">
                    Details<span className="sr-only"> of {step.title}</span>
                  </summary>
                  <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-fg-muted">
                    {step.details.map(({ name, value }) => (
                      <div key={name} className="contents">
                        <dt>{name}</dt>
                        <dd className="break-all font-mono text-fg">{value}</dd>
                      </div>
                    ))}
                  </dl>
                </details>
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
