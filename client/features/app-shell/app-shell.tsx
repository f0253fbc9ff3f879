import { Menu } from "lucide-react";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { useLocation, useNavigation } from "react-router";
import type { SessionUser } from "../../../shared/contract/accounts.ts";
import { Drawer, IconButton, preloadDrawer } from "../../components/ui";
import { useLazyPart } from "../../lib/lazy-part";
import { useProductName } from "../../lib/root-data";
import { usePageTitle } from "../../lib/route-handle";
import { type EditName, editNameDialog } from "./edit-name";
import { Sidebar } from "./sidebar";
import { UserMenu } from "./user-menu";

/**
 * The signed-in frame: a sidebar rail from the md breakpoint up (a drawer behind a menu button
 * below it), a top bar with the page title and the account menu, and the page in <main>.
 */
export function AppShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const [navOpen, setNavOpen] = useState(false);
  const productName = useProductName();
  const title = usePageTitle() ?? productName;
  const location = useLocation();
  // A client navigation waits for the next page's data from the server before it shows anything.
  const navigating = useNavigation().state !== "idle";
  const [editing, setEditing] = useState<{ kind: "user" | "org"; returnFocusTo: HTMLElement | null }>();
  const onEditName = useCallback<EditName>((kind, returnFocusTo) => setEditing({ kind, returnFocusTo }), []);
  const EditNameDialog = useLazyPart(editNameDialog, editing !== undefined)?.EditNameDialog;

  // A navigation closes the drawer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change on purpose
  useEffect(() => setNavOpen(false), [location.pathname]);

  return (
    <div className="min-h-dvh bg-canvas">
      {navigating ? (
        <div
          role="progressbar"
          aria-label="Loading the page"
          className="pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 origin-left animate-navigation-progress bg-accent"
        />
      ) : null}
      <a
        href="#main"
        className="focus-ring sr-only z-50 rounded-md bg-surface px-3 py-2 font-medium text-sm shadow-popover focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>

      <aside className="fixed inset-y-0 left-0 hidden w-64 border-border border-r bg-surface-sunken/60 md:block">
        <Sidebar user={user} onEditName={onEditName} />
      </aside>

      <Drawer
        open={navOpen}
        onClose={() => setNavOpen(false)}
        label="Navigation"
        closeLabel="Close navigation"
      >
        <Sidebar user={user} onNavigate={() => setNavOpen(false)} onEditName={onEditName} />
      </Drawer>

      <div className="flex min-h-dvh flex-col md:pl-64">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-border border-b bg-canvas/85 px-3 backdrop-blur sm:px-6">
          <IconButton
            className="md:hidden"
            label="Open navigation"
            aria-expanded={navOpen}
            icon={<Menu className="size-5" />}
            onClick={() => setNavOpen(true)}
            onPointerEnter={preloadDrawer}
            onFocus={preloadDrawer}
          />
          <h1 className="min-w-0 flex-1 truncate font-semibold text-[15px] text-fg">{title}</h1>
          <UserMenu user={user} onEditName={onEditName} />
        </header>

        <main
          id="main"
          tabIndex={-1}
          aria-busy={navigating}
          className="flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8 lg:py-8"
        >
          <div className="mx-auto w-full max-w-6xl">{children}</div>
        </main>
      </div>

      {editing && EditNameDialog ? (
        <EditNameDialog
          key={editing.kind}
          kind={editing.kind}
          current={editing.kind === "user" ? user.name : user.orgName}
          returnFocusTo={editing.returnFocusTo}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
    </div>
  );
}
