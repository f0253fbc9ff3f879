/**
 * The contributors part of /subscriptions (docs/product.md#contributors-and-seats): who works on the
 * organisation's repositories and who holds a seat. Light on purpose: the table (TanStack Table,
 * the seat rules, its calls) is fetched once the section is on screen, and a skeleton holds
 * its place until then.
 */

import { SUBSCRIPTION_MESSAGES } from "../../../shared/contract/billing.ts";
import type { ContributorsPage } from "../../../shared/contract/contributors.ts";
import { CONTRIBUTOR_MESSAGES } from "../../../shared/contract/contributors.ts";
import { Streamed } from "../../components/streamed";
import { Skeleton } from "../../components/ui";
import { lazyPart, useLazyPart } from "../../lib/lazy-part";
import type { LoadResult } from "../../lib/load-result.server";
import type { Billing } from "../billing/billing.server";

const contributorsTable = lazyPart(() => import("./contributors-table"));
const RETRY_HINT = "Check your connection and try again.";
const WAITING_FOR_PLAN = "Contributors show once the subscription has loaded.";

export function ContributorsSection({
  contributors,
  billing,
}: {
  contributors: Promise<LoadResult<ContributorsPage>>;
  billing: Promise<LoadResult<Billing>>;
}) {
  return (
    <section aria-labelledby="contributors" className="space-y-4">
      <div className="space-y-1">
        <h2 id="contributors" className="font-semibold text-fg text-xl tracking-tight">
          Contributors
        </h2>
        <p className="text-fg-muted text-sm">
          People active on your repositories. Each seat covers one of them.
        </p>
      </div>
      <Streamed
        result={billing}
        skeleton={<TableSkeleton />}
        errorTitle={SUBSCRIPTION_MESSAGES.loadFailed}
        errorDescription={RETRY_HINT}
        // The plan above reports a failed subscription load, with its Retry.
        reportedElsewhere={<p className="text-fg-muted text-sm">{WAITING_FOR_PLAN}</p>}
      >
        {(loadedBilling) => (
          <Streamed
            result={contributors}
            skeleton={<TableSkeleton />}
            errorTitle={CONTRIBUTOR_MESSAGES.fetchFailed}
            errorDescription={RETRY_HINT}
          >
            {(first) => <LazyTable first={first} billing={loadedBilling} />}
          </Streamed>
        )}
      </Streamed>
    </section>
  );
}

function LazyTable({ first, billing }: { first: ContributorsPage; billing: Billing }) {
  const part = useLazyPart(contributorsTable, true);
  if (!part) return <TableSkeleton />;
  return <part.ContributorsTable first={first} subscription={billing.subscription} seats={billing.seats} />;
}

function TableSkeleton() {
  return (
    <div aria-busy="true">
      <p className="sr-only" role="status">
        Loading contributors…
      </p>
      <div className="space-y-2" aria-hidden="true">
        {[0, 1, 2].map((n) => (
          <Skeleton key={n} className="h-10 w-full" />
        ))}
      </div>
    </div>
  );
}
