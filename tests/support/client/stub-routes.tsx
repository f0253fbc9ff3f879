/** Module-level route components for createRoutesStub in tests. */
import { Outlet, useLocation } from "react-router";

export function NoFallback() {
  return null;
}

export function PassThrough() {
  return <Outlet />;
}

export function HomeProbe() {
  return <p>Home page</p>;
}

export function IndexProbe() {
  return <p>Index page</p>;
}

/** Shows the search string, to check where a redirect went. */
export function LoginProbe() {
  const location = useLocation();
  return <p>Login page {location.search}</p>;
}

export function PageBody() {
  return <p>Page body</p>;
}

export function SettingsProbe() {
  return <p>Settings page</p>;
}
