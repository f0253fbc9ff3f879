/**
 * Pushes a commit to a sandbox pull request: one changed file's new text, as a developer would push
 * a fix. The pull request then gets a `synchronize` review.
 */
import { GitCommitHorizontal } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useRevalidator } from "react-router";
import { SANDBOX_CONTENT_MAX } from "../../../shared/review-paths.ts";
import type { SandboxDiffFile } from "../../../shared/sandbox-review-contract.ts";
import { cn } from "../../lib/cn";
import { reviewCalls } from "../../lib/lazy-reviews";
import { Button, Card, SelectField, useToast } from "../ui";
import { inputClasses } from "../ui/text-field";

export function PushCommit({ pullId, files }: { pullId: string; files: SandboxDiffFile[] }) {
  const editable = files.filter((file) => file.headContent !== null);
  const [path, setPath] = useState(editable[0]?.path ?? "");
  const [content, setContent] = useState(editable[0]?.headContent ?? "");
  const [busy, setBusy] = useState(false);
  const { toast } = useToast();
  const { revalidate } = useRevalidator();
  const editorId = useId();
  if (editable.length === 0) return null;

  function pick(next: string) {
    setPath(next);
    setContent(editable.find((file) => file.path === next)?.headContent ?? "");
  }
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const outcome = await reviewCalls
      .load()
      .then(({ pushSandboxCommit }) => pushSandboxCommit(pullId, { path, content }))
      .catch(() => ({ ok: false as const, message: "The commit could not be pushed." }));
    setBusy(false);
    if (!outcome.ok) {
      toast({ tone: "danger", title: outcome.message });
      return;
    }
    toast({ tone: "success", title: "Commit pushed", description: "The pull request is reviewed again." });
    await revalidate();
  }

  return (
    <Card as="section" aria-labelledby="push-title" className="space-y-4 p-5">
      <h2 id="push-title" className="flex items-center gap-2 font-semibold text-base text-fg">
        <GitCommitHorizontal aria-hidden="true" className="size-4" />
        Push a commit
      </h2>
      <form noValidate onSubmit={submit} className="space-y-4">
        <SelectField
          label="File"
          placeholder="Pick a file"
          options={editable.map((file) => ({ value: file.path, label: file.path }))}
          value={path}
          required
          onChange={(event) => pick(event.target.value)}
        />
        <div className="space-y-1.5">
          <label htmlFor={editorId} className="block font-medium text-fg text-sm">
            New text of {path || "the file"}
          </label>
          <textarea
            id={editorId}
            value={content}
            maxLength={SANDBOX_CONTENT_MAX}
            spellCheck={false}
            rows={12}
            onChange={(event) => setContent(event.target.value)}
            className={cn(inputClasses(), "h-auto py-2 font-mono text-xs leading-5")}
          />
        </div>
        <div className="flex justify-end">
          <Button
            type="submit"
            variant="secondary"
            loading={busy}
            disabled={!path}
            icon={<GitCommitHorizontal aria-hidden="true" className="size-4" />}
            onPointerEnter={reviewCalls.preload}
            onFocus={reviewCalls.preload}
          >
            Push commit
          </Button>
        </div>
      </form>
    </Card>
  );
}
