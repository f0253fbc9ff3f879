import { type UIMatch, useMatches } from "react-router";
import { DEFAULT_PRODUCT_NAME } from "../../shared/constants.ts";

/** What a route module may export as `handle`. */
export interface RouteHandle {
  /** The page title shown in the top bar and in the document title. */
  title?: string;
}

/** The title of the deepest matched route that names one. */
export function usePageTitle(): string | undefined {
  const matches = useMatches() as UIMatch<unknown, RouteHandle | undefined>[];
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = matches[i]?.handle?.title;
    if (title) return title;
  }
  return undefined;
}

interface MetaMatch {
  id: string;
  loaderData?: unknown;
}

/** The product name from the root loader's data, as seen by a route's `meta` function. */
export function productNameOf(matches: readonly (MetaMatch | undefined)[]): string {
  const root = matches.find((match) => match?.id === "root")?.loaderData as
    | { productName?: string }
    | undefined;
  return root?.productName || DEFAULT_PRODUCT_NAME;
}

/** "Home · Argus" */
export function documentTitle(page: string | undefined, productName: string): string {
  return page ? `${page} · ${productName}` : productName;
}
