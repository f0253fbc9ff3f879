/** What the billing routes share: the database, the provider, the billing clock and the price. */
import type { Response } from "express";
import type { Db } from "../db/database.ts";
import { HttpError } from "../http/errors.ts";
import type { Clock } from "./clock.ts";
import { type BillingProvider, BillingProviderError } from "./provider.ts";
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

/** The provider failed: 502 with the page's wording; Stripe's details stay in the log. */
export async function atProvider<T>(res: Response, call: () => Promise<T>, failure: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof BillingProviderError)) throw error;
    res.err = error;
    throw new HttpError(502, { error: failure });
  }
}
