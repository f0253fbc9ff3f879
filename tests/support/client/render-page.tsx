/**
 * Renders one signed-in page with its real loader under a stub root, for jsdom tests: the loader
 * gets the gateway context (a session by default), so it calls the (mocked) fetch as on the server.
 */
import { render } from "@testing-library/react";
import type { ComponentType } from "react";
import { createRoutesStub, type LoaderFunction } from "react-router";
import { ToastProvider } from "../../../client/components/ui";
import type { GatewayContext } from "../../../client/lib/gateway-context";
import { contextWith, gateway, rootData } from "./fixtures";
import { IndexProbe, LoginProbe, NoFallback, PassThrough } from "./stub-routes";

export interface PageRoute {
  path: string;
  // Route modules type their own loader and component props; the stub only passes them through.
  // biome-ignore lint/suspicious/noExplicitAny: any route module's loader
  loader: (...args: any[]) => unknown;
  // biome-ignore lint/suspicious/noExplicitAny: any route module's component
  Component: ComponentType<any>;
}

export interface PageOptions {
  /** The gateway context; a signed-in user by default. */
  value?: GatewayContext;
  /** More routes beside the page (where it links to). */
  extra?: { path: string; Component: ComponentType }[];
  /** Under React's StrictMode, which runs effects twice. */
  strict?: boolean;
}

/** `/` and /login are probes. */
export function renderPage(
  page: PageRoute,
  url: string,
  { value = gateway(), extra = [], strict = false }: PageOptions = {},
) {
  const Stub = createRoutesStub(
    [
      {
        id: "root",
        path: "/",
        loader: () => rootData(value),
        HydrateFallback: NoFallback,
        Component: PassThrough,
        children: [
          { path: page.path, loader: page.loader as LoaderFunction, Component: page.Component },
          { index: true, Component: IndexProbe },
          { path: "login", Component: LoginProbe },
          ...extra,
        ],
      },
    ],
    contextWith(value),
  );
  return render(
    <ToastProvider>
      <Stub initialEntries={[url]} />
    </ToastProvider>,
    { reactStrictMode: strict },
  );
}
