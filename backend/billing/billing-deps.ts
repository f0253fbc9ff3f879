/** What the billing routes share: the database, the provider, the billing clock and the price. */
import type { Db } from "../db/database.ts";
import type { Clock } from "./clock.ts";
import type { BillingProvider } from "./provider.ts";
import type { PriceTerms } from "./subscription-view.ts";

export interface BillingDeps {
  db: Db;
  provider: BillingProvider;
  clock: Clock;
  prices: PriceTerms;
  publicOrigin: string;
}

/** Express pattern of an API_PATHS entry that takes one id: `path(":id")` would be URL-encoded. */
export function idPattern(path: (id: string) => string): string {
  const marker = "__id__";
  return path(marker).replace(marker, ":id");
}
