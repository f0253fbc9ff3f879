import { type FormEvent, useId, useState } from "react";
import { CONTRIBUTOR_USERNAME_MIN } from "../../../shared/constants.ts";
import type { ContributorSuggestion } from "../../../shared/contract/contributors.ts";
import { Button, Dialog, TextField } from "../../components/ui";

/**
 * 'Add Contributor' (docs/product.md#contributors-and-seats): a GitHub username, looked up by the
 * backend. Add is enabled from CONTRIBUTOR_USERNAME_MIN characters; `onAdd` answers whether it
 * worked (it shows its own toasts), and the dialog closes when it did. When the code host can list
 * its people (the sandbox), the field offers them: a native <datalist>, which browsers expose as a
 * combobox (arrow keys open and move through it, typing narrows it) and which leaves typing any
 * other name possible (docs/decisions/037-narrow-screens.md).
 */
export function AddContributorDialog({
  open,
  onOpenChange,
  onAdd,
  suggestions,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdd: (username: string) => Promise<boolean>;
  /** People the code host knows who are not contributors yet; empty when it cannot list them. */
  suggestions: readonly ContributorSuggestion[];
  returnFocusTo?: HTMLElement | null;
}) {
  const [username, setUsername] = useState("");
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const ready = username.trim().length >= CONTRIBUTOR_USERNAME_MIN;
  const offered = suggestions.length > 0;

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
      description={
        offered
          ? "Add someone by their username on the sandbox code host, which stands in for GitHub here."
          : "Add someone by their GitHub username. They are looked up on GitHub."
      }
      returnFocusTo={returnFocusTo}
    >
      <form onSubmit={submit} className="space-y-6">
        <TextField
          label="GitHub username"
          name="username"
          autoComplete="off"
          spellCheck={false}
          value={username}
          list={offered ? listId : undefined}
          hint={
            offered
              ? `Pick one of the ${suggestions.length} people the sandbox knows (arrow down), or type at least ${CONTRIBUTOR_USERNAME_MIN} characters.`
              : `At least ${CONTRIBUTOR_USERNAME_MIN} characters.`
          }
          onChange={(event) => setUsername(event.target.value)}
        />
        {offered ? (
          <datalist id={listId}>
            {suggestions.map((person) => (
              <option key={person.platform_id} value={person.platform_id}>
                {person.name}
              </option>
            ))}
          </datalist>
        ) : null}
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
