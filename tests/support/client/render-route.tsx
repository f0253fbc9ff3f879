/** Renders one page under a stub root route (its loader answers rootData), for jsdom tests. */
import { render } from "@testing-library/react";
import type { ComponentType } from "react";
import { createRoutesStub, type LoaderFunction, useLocation } from "react-router";
import { ToastProvider } from "../../../client/components/ui";
import { useLoginNotice } from "../../../client/features/accounts/login-notice";
import { contextWith, FIREBASE, gateway, rootData } from "./fixtures";
import { HomeProbe, IndexProbe, NoFallback, PassThrough } from "./stub-routes";

/** /login as a probe: where a redirect went, and the notice its navigation state carried. */
function LoginNoticeProbe() {
  const notice = useLoginNotice();
  return (
    <p>
      Login page {useLocation().search} {notice}
    </p>
  );
}

function SignupProbe() {
  return <p>Signup page</p>;
}

/**
 * `path` is the page's route pattern; /, /home, /login and /signup are probes unless `path` is one
 * of them. `localMode` and a guest (no session) by default.
 */
export function renderRoute(
  path: string,
  // A route module's component types its own props (loaderData); the stub passes them.
  // biome-ignore lint/suspicious/noExplicitAny: any route module's component
  Component: ComponentType<any>,
  url: string,
  {
    localMode = false,
    loader,
  }: {
    localMode?: boolean;
    /** The page's own loader, run with the gateway context as on the server. */
    loader?: LoaderFunction;
  } = {},
  /** More routes beside the page, e.g. one that navigates to it with state. */
  extra: { path: string; Component: ComponentType }[] = [],
) {
  const probes = [
    { path: "home", Component: HomeProbe },
    { path: "login", Component: LoginNoticeProbe },
    { path: "signup", Component: SignupProbe },
    { index: true, Component: IndexProbe },
  ].filter((probe) => probe.path !== path);
  // Local mode runs against the Firebase Auth emulator.
  const value = gateway({
    session: null,
    localMode,
    firebase: localMode ? { ...FIREBASE, emulatorUrl: "http://127.0.0.1:9099" } : FIREBASE,
  });
  const Stub = createRoutesStub(
    [
      {
        id: "root",
        path: "/",
        loader: () => rootData(value),
        HydrateFallback: NoFallback,
        Component: PassThrough,
        children: [{ path, Component, ...(loader ? { loader } : {}) }, ...probes, ...extra],
      },
    ],
    contextWith(value),
  );
  return render(
    <ToastProvider>
      <Stub initialEntries={[url]} />
    </ToastProvider>,
  );
}
