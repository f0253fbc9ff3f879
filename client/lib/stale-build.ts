/**
 * A tab opened before the server was updated still runs the old build: the first part of the page
 * it fetches on demand afterwards (a dialog, the contributors table, the sign-in SDK) is no longer
 * on the server, and its import fails. React Router reloads the page for its own route modules;
 * this does the same for ours, but only when the build is really gone (the build's manifest answers
 * 404). A failure while offline leaves the page as it is, and the part is fetched again next time.
 */

const RELOADED_FOR = "argus:reloaded-for-build";

/** The URL of the manifest of the build this page runs (React Router's, in every page). */
function manifestUrl(): string | undefined {
  return (window as { __reactRouterManifest?: { url?: string } }).__reactRouterManifest?.url;
}

/** After a module of this page failed to load: reloads the page if its build has been replaced. */
export async function reloadIfBuildReplaced(): Promise<void> {
  const manifest = manifestUrl();
  if (!manifest) return;
  let answer: Response;
  try {
    answer = await fetch(manifest, { method: "HEAD", cache: "no-store" });
  } catch {
    return; // Offline or refused: nothing says the build changed.
  }
  if (answer.status !== 404) return;
  // Once per build: if a reload still served this build's pages, reloading again would loop.
  try {
    if (sessionStorage.getItem(RELOADED_FOR) === manifest) return;
    sessionStorage.setItem(RELOADED_FOR, manifest);
  } catch {
    return; // No session storage (a sandboxed frame): no way to tell a loop, so no reload.
  }
  window.location.reload();
}

/** `loading`, with a failure also checked for a replaced build (the failure still rejects). */
export function withReloadIfBuildReplaced<T>(loading: Promise<T>): Promise<T> {
  return loading.catch((error: unknown) => {
    void reloadIfBuildReplaced();
    throw error;
  });
}
