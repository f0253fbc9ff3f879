import type { ReactNode } from "react";
import { lazyPart, useLazyPart } from "../../lib/lazy-part";

export interface DrawerProps {
  open: boolean;
  onClose: () => void;
  /** The dialog's accessible name. */
  label: string;
  /** The close button's accessible name. */
  closeLabel?: string;
  side?: "left" | "right";
  children: ReactNode;
}

// Radix's dialog loads when the drawer first opens, or earlier through `preloadDrawer`.
const panel = lazyPart(() => import("./drawer-panel"));

/** Starts fetching the drawer; call it on pointerenter or focus of the button that opens one. */
export const preloadDrawer = panel.preload;

/**
 * A side sheet: a modal dialog (Radix) along one edge. Focus is trapped inside, the page behind is
 * inert, Escape, the close button or a click on the backdrop close it, and focus returns to where
 * it was.
 */
export function Drawer(props: DrawerProps) {
  const Panel = useLazyPart(panel, props.open)?.DrawerPanel;
  return Panel ? <Panel {...props} /> : null;
}
