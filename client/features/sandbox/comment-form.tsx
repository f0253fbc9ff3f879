/**
 * A comment on a sandbox pull request, as GitHub's conversation takes one: Markdown, and the bot
 * command on a line of its own (`@argus review`) asks for a review, which the engine runs as it
 * would from a GitHub comment (docs/product.md, "/sandbox/pulls/{pullId}").
 */
import { MessageSquarePlus } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useRevalidator } from "react-router";
import { botCommandText } from "../../../shared/contract/reviews.ts";
import { SANDBOX_COMMENT_MAX } from "../../../shared/contract/sandbox.ts";
import { Button, Card, useToast } from "../../components/ui";
import { inputClasses } from "../../components/ui/text-field";
import { useProductName } from "../../lib/root-data";
import { reviewCalls } from "../reviews/lazy-reviews";

export const COMMENT_REQUIRED = "Write a comment first.";

export function CommentForm({ pullId }: { pullId: string }) {
  const productName = useProductName();
  const command = botCommandText(productName);
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const { toast } = useToast();
  const { revalidate } = useRevalidator();
  const fieldId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!body.trim()) {
      setError(COMMENT_REQUIRED);
      return;
    }
    setError(undefined);
    setBusy(true);
    const outcome = await reviewCalls
      .load()
      .then(({ commentOnSandboxPull }) => commentOnSandboxPull(pullId, { body }))
      .catch(() => ({ ok: false as const, message: "The comment could not be posted." }));
    setBusy(false);
    if (!outcome.ok) {
      toast({ tone: "danger", title: outcome.message });
      return;
    }
    setBody("");
    toast(
      outcome.command
        ? { tone: "success", title: "Review requested", description: `${productName} answers your command.` }
        : { tone: "success", title: "Comment posted" },
    );
    await revalidate();
  }

  return (
    <Card as="section" aria-labelledby={`${fieldId}-title`} className="space-y-3 p-5">
      <h2 id={`${fieldId}-title`} className="flex items-center gap-2 font-semibold text-base text-fg">
        <MessageSquarePlus aria-hidden="true" className="size-4" />
        Add a comment
      </h2>
      <form noValidate onSubmit={submit} className="space-y-3">
        <div className="space-y-1.5">
          <label htmlFor={fieldId} className="block font-medium text-fg text-sm">
            Comment
          </label>
          <p id={`${fieldId}-hint`} className="text-fg-muted text-sm">
            Markdown works. To ask {productName} for a review, comment{" "}
            <code className="rounded bg-surface-muted px-1 font-mono text-fg">{command}</code> on a line of
            its own, as on GitHub;{" "}
            <code className="rounded bg-surface-muted px-1 font-mono text-fg">
              {botCommandText(productName, "help")}
            </code>{" "}
            lists the other commands.
          </p>
          <textarea
            id={fieldId}
            value={body}
            rows={4}
            maxLength={SANDBOX_COMMENT_MAX}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fieldId}-error ${fieldId}-hint` : `${fieldId}-hint`}
            onChange={(event) => setBody(event.target.value)}
            className={inputClasses({ invalid: Boolean(error), multiline: true })}
          />
          {error ? (
            <p id={`${fieldId}-error`} className="text-danger-text text-sm">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" disabled={busy} onClick={() => setBody(command)}>
            Write {command}
          </Button>
          <Button
            type="submit"
            loading={busy}
            icon={<MessageSquarePlus aria-hidden="true" className="size-4" />}
            onPointerEnter={reviewCalls.preload}
            onFocus={reviewCalls.preload}
          >
            Comment
          </Button>
        </div>
      </form>
    </Card>
  );
}
