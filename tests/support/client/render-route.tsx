/** Renders one page under a stub root route (its loader answers rootData), for jsdom tests. */
import { render } from "@testing-library/react";
import type { ComponentType } from "react";
import { createRoutesStub, useLocation } from "react-router";
import { ToastProvider } from "../../../client/components/ui";
import { useLoginNotice } from "../../../client/lib/login-notice";
import { FIREBASE, gateway, rootData } from "./fixtures";
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
  Component: ComponentType,
  url: string,
  { localMode = false }: { localMode?: boolean } = {},
  /** More routes beside the page, e.g. one that navigates to it with state. */
  extra: { path: string; Component: ComponentType }[] = [],
) {
  const probes = [
    { path: "home", Component: HomeProbe },
    { path: "login", Component: LoginNoticeProbe },
    { path: "signup", Component: SignupProbe },
    { index: true, Component: IndexProbe },
  ].filter((probe) => probe.path !== path);
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      // Local mode runs against the Firebase Auth emulator.
      loader: () =>
        rootData(
          gateway({
            session: null,
            localMode,
            firebase: localMode ? { ...FIREBASE, emulatorUrl: "http://127.0.0.1:9099" } : FIREBASE,
          }),
        ),
      HydrateFallback: NoFallback,
      Component: PassThrough,
      children: [{ path, Component }, ...probes, ...extra],
    },
  ]);
  return render(
    <ToastProvider>
      <Stub initialEntries={[url]} />
    </ToastProvider>,
  );
}
