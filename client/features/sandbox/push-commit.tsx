/**
 * Pushes a commit to a sandbox pull request: one changed file's new text, as a developer would push
 * a fix. The pull request then gets a `synchronize` review.
 */
import { GitCommitHorizontal } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useRevalidator } from "react-router";
import type { SandboxDiffFile } from "../../../shared/contract/sandbox.ts";
import { Button, Card, useToast } from "../../components/ui";
import { reviewCalls } from "../reviews/lazy-reviews";
import { type EditableFile, FileEditor, useFileEdit } from "./file-editor";

export function PushCommit({ pullId, files }: { pullId: string; files: SandboxDiffFile[] }) {
  const editable = files.flatMap((file): EditableFile[] =>
    file.headContent === null ? [] : [{ path: file.path, content: file.headContent }],
  );
  const edit = useFileEdit(editable);
  const { path, content } = edit;
  const [busy, setBusy] = useState(false);
  const { toast } = useToast();
  const { revalidate } = useRevalidator();
  if (editable.length === 0) return null;

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
        <FileEditor files={editable} edit={edit} rows={12} />
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
