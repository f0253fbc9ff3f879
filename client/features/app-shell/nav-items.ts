import { CreditCard, House, type LucideIcon, MessageSquareCode, Plug, Settings } from "lucide-react";
import { href } from "react-router";

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** The signed-in sidebar (docs/product.md#signed-in-layout). */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Home", to: href("/home"), icon: House },
  { label: "Reviews", to: href("/reviews"), icon: MessageSquareCode },
  { label: "Integrations", to: href("/integrations"), icon: Plug },
  { label: "Subscriptions", to: href("/subscriptions"), icon: CreditCard },
  { label: "Settings", to: href("/settings"), icon: Settings },
];
