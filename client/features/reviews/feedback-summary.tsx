/**
 * People's 👍 and 👎 on the findings, summed for the Reviews page (docs/product.md#reviews): whether
 * the reviewer helps, and which rules people keep marking as noise, so a team knows what to turn off.
 * Every repository's, or the one the page is filtered to.
 */
import { ThumbsDown, ThumbsUp } from "lucide-react";
import type { ReviewFeedback, RuleFeedback } from "../../../shared/contract/reviews.ts";
import { Alert, Card, Fact, TextLink } from "../../components/ui";
import type { LoadResult } from "../../lib/load-result.server";
import { useProductName } from "../../lib/root-data";
import { builtInRulesHref } from "../settings/settings-href";

export const FEEDBACK_TEXT = {
  title: "Feedback on findings",
  everyRepository: "In every repository",
  thisRepository: "In this repository",
  inRepository: (name: string) => `In ${name}`,
  useful: "Useful",
  noise: "Noise",
  usefulShare: "Found useful",
  notPostedAgain: "Not posted again",
  rulesTitle: "By rule, most marked as noise first",
  none: "No reactions yet.",
  settingsLink: "Built In Rules settings",
} as const;

const SOURCE_LABELS: Record<RuleFeedback["source"], string> = { builtin: "Built-in", ai: "AI model" };

const ICON = "inline size-3.5 align-[-2px]";

/** The share of reactions that were 👍, or "—" before any. */
function usefulShare({ thumbsUp, thumbsDown }: Pick<ReviewFeedback, "thumbsUp" | "thumbsDown">): string {
  const reactions = thumbsUp + thumbsDown;
  return reactions === 0 ? "—" : `${Math.round((thumbsUp / reactions) * 100)} %`;
}

/**
 * The summary, or a line saying there is none yet (only where there are reviews to react to), or
 * that it could not be loaded; nothing when the session has ended (the runs list says so).
 */
export function FeedbackSummary({
  result,
  projectId,
  repositoryName,
  hasReviews,
}: {
  result: LoadResult<ReviewFeedback>;
  projectId: string | undefined;
  /** The repository's name, when the page is filtered to one and its runs name it. */
  repositoryName: string | undefined;
  hasReviews: boolean;
}) {
  const productName = useProductName();
  if (result.status === "unauthorized") return null;
  if (result.status === "error") return <Alert tone="warning">{result.message}</Alert>;
  const feedback = result.data;
  if (feedback.findings === 0) {
    return hasReviews ? (
      <p className="text-fg-muted text-xs">
        {FEEDBACK_TEXT.none} Mark a review comment on the pull request as useful (
        <ThumbsUp aria-hidden="true" className={ICON} />) or noise (
        <ThumbsDown aria-hidden="true" className={ICON} />) to tell {productName} whether it helped; noise is
        not posted again in that repository.
      </p>
    ) : null;
  }
  const settingsHref = builtInRulesHref(projectId);
  return (
    <Card as="section" aria-labelledby="feedback-summary-title">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-border border-b px-6 py-3.5">
        <h3 id="feedback-summary-title" className="font-semibold text-fg text-sm">
          {FEEDBACK_TEXT.title}
        </h3>
        <p className="text-fg-muted text-xs">
          {!projectId
            ? FEEDBACK_TEXT.everyRepository
            : repositoryName
              ? FEEDBACK_TEXT.inRepository(repositoryName)
              : FEEDBACK_TEXT.thisRepository}
        </p>
      </div>
      <div className="space-y-4 px-6 py-5">
        <div className="grid gap-x-8 gap-y-4 lg:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
          <dl className="grid h-fit grid-cols-2 gap-x-6 gap-y-3 text-sm tabular-nums sm:grid-cols-4 lg:grid-cols-2">
            <Fact
              term={
                <>
                  <ThumbsUp aria-hidden="true" className={ICON} /> {FEEDBACK_TEXT.useful}
                </>
              }
            >
              {feedback.thumbsUp}
            </Fact>
            <Fact
              term={
                <>
                  <ThumbsDown aria-hidden="true" className={ICON} /> {FEEDBACK_TEXT.noise}
                </>
              }
            >
              {feedback.thumbsDown}
            </Fact>
            <Fact term={FEEDBACK_TEXT.usefulShare}>{usefulShare(feedback)}</Fact>
            <Fact term={FEEDBACK_TEXT.notPostedAgain}>{feedback.suppressed}</Fact>
          </dl>
          {feedback.rules.length > 0 ? <RulesTable rules={feedback.rules} /> : null}
        </div>
        <p className="text-fg-muted text-xs">
          A finding marked as noise (<ThumbsDown aria-hidden="true" className={ICON} />) is not posted again
          in that repository. To quiet a whole family of rules, turn it off in the{" "}
          <TextLink to={settingsHref}>{FEEDBACK_TEXT.settingsLink}</TextLink>.
        </p>
      </div>
    </Card>
  );
}

function RulesTable({ rules }: { rules: RuleFeedback[] }) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="pb-1.5 text-left font-medium text-fg-muted text-xs">
        {FEEDBACK_TEXT.rulesTitle}
      </caption>
      <thead className="text-fg-muted text-xs">
        <tr className="border-border border-b">
          <th scope="col" className="py-1.5 pr-3 font-medium">
            Rule
          </th>
          <th scope="col" className="hidden py-1.5 pr-3 font-medium sm:table-cell">
            Reviewer
          </th>
          <th scope="col" className="py-1.5 pr-3 text-right font-medium">
            Findings
          </th>
          <th scope="col" className="py-1.5 pr-3 text-right font-medium">
            <ThumbsUp aria-hidden="true" className={ICON} />
            <span className="sr-only">{FEEDBACK_TEXT.useful}</span>
          </th>
          <th scope="col" className="py-1.5 text-right font-medium">
            <ThumbsDown aria-hidden="true" className={ICON} />
            <span className="sr-only">{FEEDBACK_TEXT.noise}</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border tabular-nums">
        {rules.map((rule) => (
          <tr key={`${rule.source}:${rule.ruleId}`}>
            <td className="break-all py-1.5 pr-3">
              <code className="font-mono text-fg text-xs">{rule.ruleId}</code>
            </td>
            <td className="hidden py-1.5 pr-3 text-fg-muted sm:table-cell">{SOURCE_LABELS[rule.source]}</td>
            <td className="py-1.5 pr-3 text-right text-fg-muted">{rule.findings}</td>
            <td className="py-1.5 pr-3 text-right text-fg-muted">{rule.thumbsUp}</td>
            <td className="py-1.5 text-right text-fg-muted">{rule.thumbsDown}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
