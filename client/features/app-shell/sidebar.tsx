import { Pencil } from "lucide-react";
import { NavLink } from "react-router";
import type { SessionUser } from "../../../shared/contract/accounts.ts";
import { initialOf } from "../../../shared/format.ts";
import { BrandMark } from "../../components/brand";
import { IconButton } from "../../components/ui";
import { cn } from "../../lib/cn";
import { useProductName } from "../../lib/root-data";
import { NAME_EDIT_TEXT } from "../../lib/ui-text";
import { type EditName, editNameDialog } from "./edit-name";
import { NAV_ITEMS } from "./nav-items";

/** Organisation header and main navigation; the same content in the desktop rail and mobile drawer. */
export function Sidebar({
  user,
  onNavigate,
  onEditName,
}: {
  user: SessionUser;
  onNavigate?: () => void;
  onEditName: EditName;
}) {
  const productName = useProductName();
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-14 items-center gap-2.5 px-4">
        <BrandMark />
        <span className="font-semibold text-fg text-sm tracking-tight">{productName}</span>
      </div>

      <div className="px-3 pt-2 pb-4">
        <div className="flex items-center gap-2.5 rounded-md border border-border bg-surface p-2 shadow-card">
          <span
            aria-hidden="true"
            className="flex size-8 shrink-0 items-center justify-center rounded-md bg-accent-soft font-semibold text-accent-text text-sm"
          >
            {initialOf(user.orgName)}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium text-fg text-sm" title={user.orgName}>
              {user.orgName || "Organization"}
            </p>
            <p className="text-fg-subtle text-xs">Organization</p>
          </div>
          <IconButton
            label={NAME_EDIT_TEXT.org.action}
            size="sm"
            icon={<Pencil className="size-3.5" />}
            onPointerEnter={editNameDialog.preload}
            onFocus={editNameDialog.preload}
            onClick={(event) => onEditName("org", event.currentTarget)}
          />
        </div>
      </div>

      <nav aria-label="Main" className="flex-1 px-3">
        <ul className="space-y-0.5">
          {NAV_ITEMS.map(({ label, to, icon: Icon }) => (
            <li key={to}>
              <NavLink
                to={to}
                onClick={onNavigate}
                className={({ isActive }) =>
                  cn(
                    "focus-ring group flex h-9 items-center gap-2.5 rounded-md px-2.5 font-medium text-sm transition-colors",
                    isActive ? "bg-fg/7 text-fg" : "text-fg-muted hover:bg-fg/5 hover:text-fg",
                  )
                }
              >
                {({ isActive }) => (
                  <>
                    <Icon
                      aria-hidden="true"
                      className={cn(
                        "size-4",
                        isActive ? "text-accent-text" : "text-fg-subtle group-hover:text-fg-muted",
                      )}
                    />
                    {label}
                  </>
                )}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
