import { lazyPart } from "../../lib/lazy-part";

/** The name edit dialog's module, fetched on pointerenter or focus of an edit button. */
export const editNameDialog = lazyPart(() => import("./edit-name-dialog"));

/** Opens a name edit dialog; focus returns to `returnFocusTo` when it closes. */
export type EditName = (kind: "user" | "org", returnFocusTo: HTMLElement | null) => void;
