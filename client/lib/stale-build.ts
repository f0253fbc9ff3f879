/**
 * A part of the page fetched on demand (a dialog, the contributors table, the sign-in SDK) that
 * fails to import. Two causes: the server was updated since the tab opened, so the old build's files
 * are gone, or the connection dropped. React Router reloads the page for its own route modules;
 * this does the same for ours when the build is really gone (its manifest answers 404). Otherwise
 * the page says so: browsers keep a failed module fetch for the document's life (Chromium imports it
 * again without a request), so only a reload can bring the part (docs/decisions/056).
 */

const RELOADED_FOR = "argus:reloaded-for-build";

/** The URL of the manifest of the build this page runs (React Router's, in every page). */
function manifestUrl(): string | undefined {
  return (window as { __reactRouterManifest?: { url?: string } }).__reactRouterManifest?.url;
}

/** Whether the server no longer has this page's build; undefined when it cannot be told (offline). */
async function buildReplaced(manifest: string): Promise<boolean | undefined> {
  try {
    const answer = await fetch(manifest, { method: "HEAD", cache: "no-store" });
    return answer.status === 404;
  } catch {
    return undefined;
  }
}

/** Reloads once per build: if a reload still served this build's pages, another would loop. */
function reloadOnce(manifest: string): boolean {
  try {
    if (sessionStorage.getItem(RELOADED_FOR) === manifest) return false;
    sessionStorage.setItem(RELOADED_FOR, manifest);
  } catch {
    return false; // No session storage (a sandboxed frame): no way to tell a loop.
  }
  window.location.reload();
  return true;
}

let partFailed = false;
const listeners = new Set<() => void>();

/** For useSyncExternalStore: whether a part asked for could not be loaded in this page. */
export const unloadedPart = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  failed: () => partFailed,
};

/** After a part the user asked for failed to import: a reload onto the new build, or the notice. */
export async function recoverFromFailedPart(): Promise<void> {
  const manifest = manifestUrl();
  if (manifest && (await buildReplaced(manifest)) && reloadOnce(manifest)) return;
  partFailed = true;
  for (const listener of listeners) listener();
}

/** `loading`, a part asked for: its failure is recovered from as above, and still rejects. */
export function withRecovery<T>(loading: Promise<T>): Promise<T> {
  return loading.catch((error: unknown) => {
    void recoverFromFailedPart();
    throw error;
  });
}
