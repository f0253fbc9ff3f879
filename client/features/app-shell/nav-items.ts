import { CreditCard, House, type LucideIcon, MessageSquareCode, Plug, Settings } from "lucide-react";

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** The signed-in sidebar (docs/product.md#signed-in-layout). */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Home", to: "/home", icon: House },
  { label: "Reviews", to: "/reviews", icon: MessageSquareCode },
  { label: "Integrations", to: "/integrations", icon: Plug },
  { label: "Subscriptions", to: "/subscriptions", icon: CreditCard },
  { label: "Settings", to: "/settings", icon: Settings },
];
