import { Building2, ChevronDown, LogOut, Pencil } from "lucide-react";
import type { SessionUser } from "../../../shared/contract/accounts.ts";
import { TEXT } from "../../../shared/contract/accounts.ts";
import { formatRole, initialOf, shortId } from "../../../shared/format.ts";
import { Badge, Button, Popover } from "../../components/ui";
import { NAME_EDIT_TEXT } from "../../lib/ui-text";
import { useSignOut } from "../accounts/use-sign-out";
import { type EditName, editNameDialog } from "./edit-name";

/** The account panel in the top bar (docs/product.md#signed-in-layout). */
export function UserMenu({ user, onEditName }: { user: SessionUser; onEditName: EditName }) {
  const { signOut, pending } = useSignOut();
  const displayName = user.name || user.email;

  return (
    <Popover
      label="Account"
      renderTrigger={(trigger) => (
        <Button variant="ghost" className="gap-2 pr-2 pl-1.5" {...trigger}>
          <Avatar name={displayName} />
          <span className="sr-only max-w-40 truncate text-fg sm:not-sr-only">{displayName}</span>
          <ChevronDown aria-hidden="true" className="size-4 text-fg-subtle" />
        </Button>
      )}
    >
      {(close, trigger) => (
        <>
          <div className="flex items-start gap-3 px-2.5 pt-2.5 pb-3">
            <Avatar name={displayName} large />
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-fg text-sm">{displayName}</p>
              <p className="truncate text-fg-muted text-sm">{user.email}</p>
              <Badge tone="accent" className="mt-1.5">
                {formatRole(user.role)}
              </Badge>
            </div>
          </div>

          <dl className="space-y-2 border-border border-t px-2.5 py-3 text-sm">
            <Detail term="Organization">{user.orgName || "—"}</Detail>
            <Detail term="Organization ID">
              <span className="font-mono text-xs">{user.orgId}</span>
            </Detail>
            <Detail term="User ID">
              <span className="font-mono text-xs" title={user.id}>
                {shortId(user.id)}
              </span>
            </Detail>
          </dl>

          <p className="flex items-center gap-2 border-border border-t px-2.5 py-2.5 text-sm text-success-text">
            <span aria-hidden="true" className="size-2 rounded-full bg-current" />
            {TEXT.activeSession}
          </p>

          <div className="border-border border-t py-1.5">
            {(["user", "org"] as const).map((kind) => (
              <Button
                key={kind}
                variant="ghost"
                fullWidth
                className="justify-start"
                icon={
                  kind === "user" ? (
                    <Pencil aria-hidden="true" className="size-4" />
                  ) : (
                    <Building2 aria-hidden="true" className="size-4" />
                  )
                }
                onPointerEnter={editNameDialog.preload}
                onFocus={editNameDialog.preload}
                onClick={() => {
                  // The dialog takes focus, and gives it back to the menu's button when it closes.
                  close({ restoreFocus: false });
                  onEditName(kind, trigger.current);
                }}
              >
                {NAME_EDIT_TEXT[kind].action}
              </Button>
            ))}
          </div>

          <div className="border-border border-t pt-1.5">
            <Button
              variant="ghost"
              fullWidth
              className="justify-start"
              loading={pending}
              icon={<LogOut aria-hidden="true" className="size-4" />}
              onClick={() => signOut()}
            >
              {TEXT.signOut}
            </Button>
          </div>
        </>
      )}
    </Popover>
  );
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="shrink-0 text-fg-muted">{term}</dt>
      <dd className="min-w-0 truncate text-right text-fg">{children}</dd>
    </div>
  );
}

function Avatar({ name, large = false }: { name: string; large?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={
        large
          ? "flex size-9 shrink-0 items-center justify-center rounded-full bg-accent font-semibold text-accent-fg text-sm"
          : "flex size-6 shrink-0 items-center justify-center rounded-full bg-accent font-semibold text-[11px] text-accent-fg"
      }
    >
      {initialOf(name)}
    </span>
  );
}
