import { type FormEvent, useState } from "react";
import { CONTRIBUTOR_USERNAME_MIN } from "../../../shared/constants.ts";
import { Button, Dialog, TextField } from "../ui";

/**
 * 'Add Contributor' (docs/product.md#contributors-and-seats): a GitHub username, looked up by the
 * backend. Add is enabled from CONTRIBUTOR_USERNAME_MIN characters; `onAdd` answers whether it
 * worked (it shows its own toasts), and the dialog closes when it did.
 */
export function AddContributorDialog({
  open,
  onOpenChange,
  onAdd,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdd: (username: string) => Promise<boolean>;
  returnFocusTo?: HTMLElement | null;
}) {
  const [username, setUsername] = useState("");
  const [busy, setBusy] = useState(false);
  const ready = username.trim().length >= CONTRIBUTOR_USERNAME_MIN;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    const added = await onAdd(username.trim());
    setBusy(false);
    if (added) {
      setUsername("");
      onOpenChange(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add Contributor"
      description="Add someone by their GitHub username. They are looked up on GitHub."
      returnFocusTo={returnFocusTo}
    >
      <form onSubmit={submit} className="space-y-6">
        <TextField
          label="GitHub username"
          name="username"
          autoComplete="off"
          spellCheck={false}
          value={username}
          hint={`At least ${CONTRIBUTOR_USERNAME_MIN} characters.`}
          onChange={(event) => setUsername(event.target.value)}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!ready} loading={busy}>
            Add
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
