import { PackageOpen } from "lucide-react";
import { SUBSCRIPTION_MESSAGES } from "../../shared/contract/billing.ts";
import { Streamed } from "../components/streamed";
import { Card, EmptyState, Skeleton } from "../components/ui";
import { loadBilling } from "../features/billing/billing.server";
import { SUBSCRIPTIONS_TEXT as T } from "../features/billing/billing-text";
import { SubscriptionOverview } from "../features/billing/subscription-overview";
import { loadContributors } from "../features/contributors/contributors.server";
import { ContributorsSection } from "../features/contributors/contributors-section";
import { SeatCountsProvider } from "../features/contributors/seat-counts";
import { backendFor } from "../lib/backend.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/subscriptions";

export const handle: RouteHandle = { title: T.title };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle(T.title, productNameOf(matches)) }];
}

/** The billing data streams in: the promise is returned un-awaited and never rejects. */
export function loader({ context, request }: Route.LoaderArgs) {
  const { session, api } = backendFor(context, request);
  const { orgId, email } = session.user;
  return { user: { orgId, email }, billing: loadBilling(api), contributors: loadContributors(api) };
}

/** docs/product.md#subscriptions */
export default function Subscriptions({ loaderData }: Route.ComponentProps) {
  const { user, billing, contributors } = loaderData;
  return (
    // The plan card and the contributors table share the seat counts (seat-counts.tsx).
    <SeatCountsProvider>
      <div className="space-y-8">
        <section aria-labelledby="subscriptions" className="space-y-4">
          <div className="space-y-1">
            <h2 id="subscriptions" className="font-semibold text-2xl text-fg tracking-tight">
              {T.title}
            </h2>
            <p className="text-fg-muted text-sm">{T.intro}</p>
          </div>
          <Streamed
            result={billing}
            skeleton={<OverviewSkeleton />}
            errorTitle={SUBSCRIPTION_MESSAGES.loadFailed}
            errorDescription={T.loadFailedHint}
          >
            {(data) =>
              data.subscription ? (
                <SubscriptionOverview billing={{ ...data, subscription: data.subscription }} user={user} />
              ) : (
                <EmptyState
                  icon={<PackageOpen />}
                  title={T.noSubscription}
                  description={T.noSubscriptionHint}
                />
              )
            }
          </Streamed>
        </section>
        <ContributorsSection contributors={contributors} billing={billing} />
      </div>
    </SeatCountsProvider>
  );
}

/**
 * The overview's shape (the action buttons, the banner, then the plan and period cards, line for
 * line as a trial shows them), so the contributors below do not jump when the plan streams in.
 */
function OverviewSkeleton() {
  return (
    <div aria-busy="true">
      <p className="sr-only" role="status">
        {T.loading}
      </p>
      <div className="space-y-6" aria-hidden="true">
        <div className="flex justify-end">
          <Skeleton className="h-9 w-36" />
        </div>
        <Skeleton className="h-20" />
        <div className="grid gap-4 md:grid-cols-2">
          <Card className="space-y-4 p-5">
            <Skeleton className="h-5 w-28" />
            <Skeleton className="h-8 w-40" />
            <Skeleton className="h-5 w-44" />
            <Skeleton className="h-5 w-52" />
          </Card>
          <Card className="space-y-4 p-5">
            <Skeleton className="h-5 w-32" />
            <Skeleton className="h-6 w-24" />
            <Skeleton className="h-5 w-48" />
          </Card>
        </div>
      </div>
    </div>
  );
}
