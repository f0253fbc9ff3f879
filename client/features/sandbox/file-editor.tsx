/**
 * The file picker and text box of the sandbox's edit forms: opening a pull request with a changed
 * file (/sandbox/repositories/:projectId/pulls) and pushing a commit to one (PushCommit).
 */
import { useId, useState } from "react";
import { SANDBOX_CONTENT_MAX } from "../../../shared/contract/sandbox.ts";
import { SelectField } from "../../components/ui";
import { inputClasses } from "../../components/ui/text-field";
import { cn } from "../../lib/cn";

export interface EditableFile {
  path: string;
  content: string;
}

/** The picked file and its new text; picking another file starts from that file's text. */
export function useFileEdit(files: EditableFile[]) {
  const [path, setPath] = useState(files[0]?.path ?? "");
  const [content, setContent] = useState(files[0]?.content ?? "");
  function pick(next: string) {
    setPath(next);
    setContent(files.find((file) => file.path === next)?.content ?? "");
  }
  return { path, content, setContent, pick };
}

export function FileEditor({
  files,
  edit,
  rows,
}: {
  files: EditableFile[];
  edit: ReturnType<typeof useFileEdit>;
  rows: number;
}) {
  const editorId = useId();
  return (
    <>
      <SelectField
        label="File"
        placeholder="Pick a file"
        options={files.map((file) => ({ value: file.path, label: file.path }))}
        value={edit.path}
        required
        onChange={(event) => edit.pick(event.target.value)}
      />
      <div className="space-y-1.5">
        <label htmlFor={editorId} className="block font-medium text-fg text-sm">
          New text of {edit.path || "the file"}
        </label>
        <textarea
          id={editorId}
          value={edit.content}
          maxLength={SANDBOX_CONTENT_MAX}
          spellCheck={false}
          rows={rows}
          onChange={(event) => edit.setContent(event.target.value)}
          className={cn(inputClasses({ multiline: true }), "font-mono text-xs leading-5")}
        />
      </div>
    </>
  );
}
