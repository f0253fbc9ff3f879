/**
 * Data a loader streams (docs/decisions/004-client-design-system.md#decision, page patterns): a
 * skeleton while the promise is pending, then the data, an error with Retry, or, when the backend
 * no longer accepts the session, the sign-out that sends the user to /login.
 */
import { RotateCw, TriangleAlert } from "lucide-react";
import { type ReactNode, Suspense, useEffect } from "react";
import { Await, useLocation, useRevalidator } from "react-router";
import { useSignOut } from "../features/accounts/use-sign-out";
import type { LoadResult } from "../lib/load-result.server";
import { Alert, Button, EmptyState, Spinner } from "./ui";

export function Streamed<T>({
  result,
  skeleton,
  errorTitle,
  errorDescription,
  reportedElsewhere,
  children,
}: {
  result: Promise<LoadResult<T>>;
  skeleton: ReactNode;
  /** The title when the promise itself fails (the stream broke); a failed call names its own. */
  errorTitle: string;
  errorDescription: string;
  /**
   * Shown instead of the error (and of the sign-out) when another part of the page awaits the same
   * data and already reports its failure, so a page never says the same thing twice.
   */
  reportedElsewhere?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const error = reportedElsewhere ?? <LoadError title={errorTitle} description={errorDescription} />;
  return (
    <Suspense key={keyOf(result)} fallback={skeleton}>
      <Await resolve={result} errorElement={error}>
        {(settled) => (
          <Settled result={settled} errorDescription={errorDescription} reportedElsewhere={reportedElsewhere}>
            {children}
          </Settled>
        )}
      </Await>
    </Suspense>
  );
}

/**
 * Data a loader awaited: the data, an error with Retry, or the sign-out. For pages that revalidate
 * while open (a review under way), where a streamed promise would bring the skeleton back each time.
 */
export function Settled<T>({
  result,
  errorDescription,
  reportedElsewhere,
  children,
}: {
  result: LoadResult<T>;
  errorDescription: string;
  reportedElsewhere?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (result.status !== "ok" && reportedElsewhere !== undefined) return reportedElsewhere;
  if (result.status === "unauthorized") return <SessionEnded />;
  if (result.status === "error") return <LoadError title={result.message} description={errorDescription} />;
  return children(result.data);
}

function LoadError({ title, description }: { title: string; description: string }) {
  const revalidator = useRevalidator();
  return (
    <div role="alert">
      <EmptyState
        tone="danger"
        icon={<TriangleAlert />}
        title={title}
        description={description}
        action={
          <Button
            variant="secondary"
            loading={revalidator.state === "loading"}
            icon={<RotateCw aria-hidden="true" className="size-4" />}
            onClick={() => revalidator.revalidate()}
          >
            Retry
          </Button>
        }
      />
    </div>
  );
}

/** The backend no longer accepts the session: end it (clears the cookie) and go to /login. */
function SessionEnded() {
  const { signOut } = useSignOut();
  const location = useLocation();
  const returnTo = `${location.pathname}${location.search}`;
  useEffect(() => {
    void signOut(returnTo);
  }, [signOut, returnTo]);
  return (
    <Alert tone="warning" title="Your session has ended">
      <span className="inline-flex items-center gap-2">
        <Spinner size="sm" /> Taking you to sign in…
      </span>
    </Alert>
  );
}

/** A fresh key per loader promise, so Retry shows skeletons again instead of the old error. */
const promiseKeys = new WeakMap<object, number>();
let lastKey = 0;
function keyOf(promise: object): number {
  let key = promiseKeys.get(promise);
  if (key === undefined) {
    key = ++lastKey;
    promiseKeys.set(promise, key);
  }
  return key;
}
