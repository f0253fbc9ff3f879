/**
 * 👍 and 👎 under a review comment, as GitHub shows reactions: two toggle buttons with their counts,
 * pressed when they are the signed-in person's. A 👎 tells the reviewer the finding is noise: it is
 * not posted in this repository again (docs/product.md, "Sandbox pull requests").
 */
import { type LucideIcon, ThumbsDown, ThumbsUp } from "lucide-react";
import { useState } from "react";
import type { SandboxReaction, SandboxReactions } from "../../../shared/contract/sandbox.ts";
import { useToast } from "../../components/ui";
import { cn } from "../../lib/cn";
import { reviewCalls } from "../reviews/lazy-reviews";

/** Icons rather than emoji, which a machine without an emoji font shows as empty boxes. */
const REACTIONS: ReadonlyArray<{ content: SandboxReaction; Icon: LucideIcon; label: string }> = [
  { content: "+1", Icon: ThumbsUp, label: "Useful" },
  { content: "-1", Icon: ThumbsDown, label: "Noise" },
];

export function CommentReactions({
  commentId,
  reactions,
}: {
  commentId: number;
  reactions: SandboxReactions;
}) {
  const [shown, setShown] = useState(reactions);
  const [busy, setBusy] = useState(false);
  const { toast } = useToast();

  async function toggle(content: SandboxReaction) {
    setBusy(true);
    const outcome = await reviewCalls
      .load()
      .then(({ reactToSandboxComment }) =>
        reactToSandboxComment(commentId, { content, pressed: !shown.mine.includes(content) }),
      )
      .catch(() => ({ ok: false as const, message: "The reaction could not be saved." }));
    setBusy(false);
    if (outcome.ok) setShown(outcome.reactions);
    else toast({ tone: "danger", title: outcome.message });
  }

  return (
    <fieldset className="flex items-center gap-1.5" aria-busy={busy}>
      <legend className="sr-only">Reactions</legend>
      {REACTIONS.map(({ content, Icon, label }) => {
        const pressed = shown.mine.includes(content);
        return (
          <button
            key={content}
            type="button"
            aria-pressed={pressed}
            disabled={busy}
            title={label}
            onPointerEnter={reviewCalls.preload}
            onFocus={reviewCalls.preload}
            onClick={() => void toggle(content)}
            className={cn(
              "focus-ring inline-flex h-7 items-center gap-1 rounded-full border px-2.5 text-xs disabled:opacity-55",
              pressed
                ? "border-accent bg-accent-soft text-accent-text"
                : "border-border bg-surface text-fg-muted hover:bg-surface-muted",
            )}
          >
            <Icon aria-hidden="true" className="size-3.5" />
            <span className="sr-only">{label}</span> <span>{shown[content]}</span>
          </button>
        );
      })}
    </fieldset>
  );
}
