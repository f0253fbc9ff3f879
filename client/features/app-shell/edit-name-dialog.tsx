/**
 * The user and organisation name edit dialogs (docs/product.md#signed-in-layout). Loaded on demand
 * (edit-name.ts), with Radix's dialog, react-hook-form and the API calls.
 */
import { useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { EDITABLE_NAME_MAX } from "../../../shared/constants.ts";
import { NAME_EDIT, TEXT } from "../../../shared/contract/accounts.ts";
import { NAME_EDIT_RULES } from "../../../shared/validation.ts";
import { Alert, Button, Dialog, TextField, useToast } from "../../components/ui";
import { useRulesForm } from "../../lib/forms";
import { NAME_EDIT_TEXT } from "../../lib/ui-text";
import { type NameKind, updateName } from "../accounts/account-api";

export interface EditNameDialogProps {
  kind: NameKind;
  current: string;
  onClose: () => void;
  /** Where focus goes when the dialog closes. */
  returnFocusTo: HTMLElement | null;
}

export function EditNameDialog({ kind, current, onClose, returnFocusTo }: EditNameDialogProps) {
  const text = NAME_EDIT_TEXT[kind];
  const form = useRulesForm(NAME_EDIT_RULES, { name: current.slice(0, EDITABLE_NAME_MAX) });
  const { toast } = useToast();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  // Set at once, before the re-render that disables Save: a double click saves once.
  const saving = useRef(false);
  const atLimit = form.watch("name").length >= EDITABLE_NAME_MAX;

  async function save({ name }: { name: string }) {
    if (saving.current) return;
    saving.current = true;
    setBusy(true);
    setFailure(undefined);
    const outcome = await updateName(kind, name.trim());
    if (outcome.ok) {
      // The layout's loader reads the renewed cookie: sidebar and menu show the new name at once.
      await revalidator.revalidate();
      toast({ tone: "success", title: outcome.message });
      onClose();
    } else {
      // The dialog stays open with what was typed.
      setFailure(outcome.message);
    }
    saving.current = false;
    setBusy(false);
  }

  const formId = `edit-${kind}-name`;
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={text.title}
      returnFocusTo={returnFocusTo}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {NAME_EDIT.cancel}
          </Button>
          <Button type="submit" form={formId} loading={busy}>
            {NAME_EDIT.saveChanges}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={form.handleSubmit(save)} className="space-y-4">
        {failure ? <Alert tone="danger">{failure}</Alert> : null}
        <TextField
          {...form.register("name")}
          label={text.field}
          autoComplete={kind === "user" ? "name" : "organization"}
          maxLength={EDITABLE_NAME_MAX}
          required
          error={form.formState.errors.name?.message}
          hint={atLimit ? TEXT.characterLimitReached : undefined}
        />
      </form>
    </Dialog>
  );
}
