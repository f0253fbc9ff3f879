import { CreditCard, House, type LucideIcon, Plug, Settings } from "lucide-react";

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** The signed-in sidebar (spec section 2, Shared layout). */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Home", to: "/home", icon: House },
  { label: "Integrations", to: "/integrations", icon: Plug },
  { label: "Subscriptions", to: "/subscriptions", icon: CreditCard },
  { label: "Settings", to: "/settings", icon: Settings },
];
