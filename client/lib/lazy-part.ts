import { startTransition, useEffect, useState } from "react";
import { withRecovery } from "./stale-build";

export interface LazyPart<T> {
  /** Starts fetching the module; call it on pointerenter or focus of whatever opens the part. */
  preload: () => void;
  load: () => Promise<T>;
  /** The module, once fetched. */
  loaded: () => T | undefined;
}

/**
 * A piece of the design system that stays off the first load (docs/decisions/006-page-weight.md):
 * its module is fetched by `preload()` (so it is there by the click) or, at the latest, when
 * `useLazyPart(part, true)` first renders. Fetched once and kept; a failed fetch is tried again the
 * next time; when the part was asked for, the page reloads if the server has been updated since it
 * loaded (stale-build.ts).
 */
export function lazyPart<T>(importModule: () => Promise<T>): LazyPart<T> {
  let loaded: T | undefined;
  let pending: Promise<T> | undefined;

  function fetchModule(): Promise<T> {
    pending ??= importModule().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  }

  return {
    // Only a part asked for may reload the page; a hover that preloads it may not.
    load: () => withRecovery(fetchModule()),
    preload: () => void fetchModule().catch(() => {}),
    loaded: () => loaded,
  };
}

/**
 * The part's module once it is loaded; starts loading it when `wanted` is true. The part's first
 * render is a transition, which React renders in slices that yield to the browser: a large part
 * (the contributors table) would otherwise render in one long task that holds input back
 * (docs/performance.md, "Eighth round").
 */
export function useLazyPart<T>(part: LazyPart<T>, wanted: boolean): T | undefined {
  const [, setReady] = useState(false);
  useEffect(() => {
    if (!wanted || part.loaded()) return;
    let live = true;
    part.load().then(
      () => live && startTransition(() => setReady(true)),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [part, wanted]);
  return part.loaded();
}
