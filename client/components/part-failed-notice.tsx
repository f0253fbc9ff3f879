import { useSyncExternalStore } from "react";
import { unloadedPart } from "../lib/stale-build";
import { Alert, Button } from "./ui";

export const PART_FAILED_TEXT = {
  title: "Part of this page could not be loaded",
  body: "Check your connection, then reload the page.",
  reload: "Reload page",
} as const;

/**
 * Shown once a part the user asked for (a dialog, a table) could not be fetched while the page's
 * build is still on the server: the browser will not fetch it again in this page, so only a reload
 * brings it (client/lib/stale-build.ts). Part of every page's first load, so it needs nothing fetched.
 */
export function PartFailedNotice() {
  const failed = useSyncExternalStore(unloadedPart.subscribe, unloadedPart.failed, () => false);
  if (!failed) return null;
  return (
    <div className="fixed inset-x-4 bottom-4 z-50 mx-auto max-w-md shadow-popover">
      <Alert
        tone="danger"
        title={PART_FAILED_TEXT.title}
        action={
          <Button size="sm" onClick={() => window.location.reload()}>
            {PART_FAILED_TEXT.reload}
          </Button>
        }
      >
        {PART_FAILED_TEXT.body}
      </Alert>
    </div>
  );
}
