import { Compass, TriangleAlert } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
import { DEFAULT_PATH, DEFAULT_PRODUCT_NAME } from "../shared/constants.ts";
import { ERRORS } from "../shared/contract/accounts.ts";
import type { Route } from "./+types/root";
import appCss from "./app.css?url";
import { BrandMark, FAVICON_HREF } from "./components/brand";
import { PartFailedNotice } from "./components/part-failed-notice";
import { ButtonLink, Card, ToastProvider } from "./components/ui";
import { gatewayContext } from "./lib/gateway-context";
import { useNonce } from "./lib/nonce";
import { documentTitle } from "./lib/route-handle";

export const links: Route.LinksFunction = () => [
  // A stylesheet with a precedence is one of React's resources, which it puts in the head ahead
  // of the 30-40 module preloads of <Scripts>: as a plain <link> it came after them, and the
  // browser asked for it last (docs/decisions/048-stylesheet-first.md).
  { rel: "stylesheet", href: appCss, precedence: "default" },
  { rel: "icon", href: FAVICON_HREF, type: "image/svg+xml" },
];

/**
 * Public facts every page may use. The session token stays on the server: only the user is sent,
 * once the backend has confirmed the session (null if it has ended).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { productName, session, firebase, localMode } = context.get(gatewayContext);
  return {
    productName,
    localMode,
    user: session ? await session.confirmation.confirmed() : null,
    firebase: {
      apiKey: firebase.apiKey,
      authDomain: firebase.authDomain,
      projectId: firebase.projectId,
      emulatorUrl: firebase.emulatorUrl,
    },
  };
}

/**
 * Keeps the signed-in user current after sign-in and sign-out. Cheap: the backend call it waits for
 * is the page's own (a status call only for a page without any, as every page made before).
 */
export function shouldRevalidate() {
  return true;
}

export function meta({ loaderData, error }: Route.MetaArgs) {
  const productName = loaderData?.productName || DEFAULT_PRODUCT_NAME;
  if (error) {
    const notFound = isRouteErrorResponse(error) && error.status === 404;
    return [{ title: documentTitle(notFound ? "Page not found" : "Error", productName) }];
  }
  return [{ title: productName }];
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // Until React has hydrated the page, buttons that act through script do nothing; browser tests
  // wait for this mark before they click one.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <ToastProvider>
      <Outlet />
      <PartFailedNotice />
    </ToastProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;

  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <Card className="w-full max-w-md p-8 text-center">
        <div className="mb-6 flex justify-center">
          <BrandMark size="lg" />
        </div>
        <p className="inline-flex items-center gap-1.5 font-medium text-fg-muted text-sm">
          {notFound ? (
            <Compass aria-hidden="true" className="size-4" />
          ) : (
            <TriangleAlert aria-hidden="true" className="size-4 text-warning-text" />
          )}
          Error {status}
        </p>
        <h1 className="mt-2 font-semibold text-2xl text-fg tracking-tight">
          {notFound ? "Page not found" : "Something went wrong"}
        </h1>
        <p className="mt-2 text-fg-muted text-sm">
          {notFound ? "The page you are looking for does not exist or has moved." : ERRORS.somethingWentWrong}
        </p>
        <div className="mt-6 flex justify-center">
          <ButtonLink to={DEFAULT_PATH} variant="primary" reloadDocument>
            Back to Home
          </ButtonLink>
        </div>
        {detail ? (
          <pre className="mt-6 max-h-64 overflow-auto rounded-md bg-surface-sunken p-3 text-left font-mono text-fg-muted text-xs">
            {detail}
          </pre>
        ) : null}
      </Card>
    </main>
  );
}
