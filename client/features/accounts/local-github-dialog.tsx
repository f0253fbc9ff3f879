/**
 * Local mode's stand-in for GitHub's sign-in popup (client/features/accounts/firebase-auth.ts explains why):
 * a dialog that asks for the GitHub profile to continue as. Loaded on demand.
 */
import { email, required } from "../../../shared/validation.ts";
import { Button, Dialog, TextField } from "../../components/ui";
import { useRulesForm } from "../../lib/forms";
import type { EmulatorGitHubProfile } from "./firebase-auth";

/** Local mode's stand-in for GitHub's sign-in popup (client/features/accounts/local-github-dialog.tsx). */
const LOCAL_GITHUB_TEXT = {
  title: "GitHub in local mode",
  description:
    "Local mode has no GitHub: the Firebase Auth emulator stands in for it. Enter the GitHub profile to continue as.",
  email: "GitHub e-mail",
  name: "Name",
  login: "GitHub username",
  continue: "Continue",
  cancel: "Cancel",
} as const;

const RULES = { email: [required, email], name: [], login: [required] };

export function LocalGitHubDialog({
  onContinue,
  onCancel,
}: {
  onContinue: (profile: EmulatorGitHubProfile) => void;
  onCancel: () => void;
}) {
  const form = useRulesForm<EmulatorGitHubProfile>(RULES, { email: "", name: "", login: "" });
  const { errors } = form.formState;
  const submit = form.handleSubmit((profile) =>
    onContinue({ email: profile.email.trim(), name: profile.name.trim(), login: profile.login.trim() }),
  );
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      title={LOCAL_GITHUB_TEXT.title}
      description={LOCAL_GITHUB_TEXT.description}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {LOCAL_GITHUB_TEXT.cancel}
          </Button>
          <Button type="submit" form="local-github">
            {LOCAL_GITHUB_TEXT.continue}
          </Button>
        </>
      }
    >
      <form id="local-github" noValidate onSubmit={submit} className="space-y-4">
        <TextField
          label={LOCAL_GITHUB_TEXT.email}
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register("email")}
        />
        <TextField label={LOCAL_GITHUB_TEXT.name} autoComplete="name" {...form.register("name")} />
        <TextField
          label={LOCAL_GITHUB_TEXT.login}
          autoComplete="username"
          error={errors.login?.message}
          {...form.register("login")}
        />
      </form>
    </Dialog>
  );
}
