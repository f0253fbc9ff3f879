import { CircleCheck, Clock, RotateCw, TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { href, redirect, useNavigate } from "react-router";
import { INSTALLATION_COUNTDOWN_SECONDS } from "../../shared/constants.ts";
import { INSTALLATION } from "../../shared/contract/code-hosts.ts";
import { Button, ButtonLink, Card, EmptyState, Spinner } from "../components/ui";
import { integrationsApi } from "../features/code-hosts/lazy-integrations";
import { requireSession } from "../lib/guards.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/installation";

export const handle: RouteHandle = { title: "Installation" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Installation", productNameOf(matches)) }];
}

type Callback =
  | { kind: "pending" }
  | { kind: "missing" }
  | { kind: "install"; orgId: string; installationId: string; code: string };

/**
 * Where the code host sends the browser after the app installation (docs/product.md#installation).
 * The query decides the state on the server; only completing the installation runs in the browser.
 */
export function loader({ context, request }: Route.LoaderArgs): Callback {
  const { user } = requireSession(context, request);
  const query = new URL(request.url).searchParams;
  const setupAction = query.get("setup_action");
  if (!setupAction) throw redirect(href("/"));
  if (setupAction === "request") return { kind: "pending" };
  const code = query.get("code");
  const installationId = query.get("installation_id");
  if (!code || !installationId) return { kind: "missing" };
  return { kind: "install", orgId: user.orgId, installationId, code };
}

export default function Installation({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-lg">
      {loaderData.kind === "pending" ? (
        <EmptyState
          icon={<Clock />}
          titleAs="h2"
          title={INSTALLATION.pendingTitle}
          description={INSTALLATION.pending}
          action={<BackToHome />}
        />
      ) : loaderData.kind === "missing" ? (
        <div role="alert">
          <EmptyState
            tone="danger"
            icon={<TriangleAlert />}
            titleAs="h2"
            title={INSTALLATION.missingParameters}
            description="The code host sent the browser back without the installation's details. Connect again from Integrations."
            action={<BackToHome />}
          />
        </div>
      ) : (
        // A new installation id is a new installation: its own attempts and countdown.
        <CompleteInstallation
          key={loaderData.installationId}
          orgId={loaderData.orgId}
          installationId={loaderData.installationId}
          code={loaderData.code}
        />
      )}
    </div>
  );
}

type Phase = { name: "processing" } | { name: "failed"; reason?: string } | { name: "done" };

/** `code` proves to the backend that this user may connect the installation. */
function CompleteInstallation({
  orgId,
  installationId,
  code,
}: {
  orgId: string;
  installationId: string;
  code: string;
}) {
  const [attempt, setAttempt] = useState(1);
  const [phase, setPhase] = useState<Phase>({ name: "processing" });
  // The attempt already under way: React's strict effects run an effect twice, the setup runs once.
  const started = useRef(0);

  useEffect(() => {
    if (started.current === attempt) return;
    started.current = attempt;
    setPhase({ name: "processing" });
    integrationsApi
      .load()
      .then(({ completeInstallation }) => completeInstallation({ org_id: orgId, installationId, code }))
      .catch(() => ({ ok: false, message: undefined }))
      .then((outcome) =>
        setPhase(outcome.ok ? { name: "done" } : { name: "failed", reason: outcome.message || undefined }),
      );
  }, [attempt, orgId, installationId, code]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  if (phase.name === "processing") {
    return (
      <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
        <Spinner size="lg" className="text-accent" />
        <h2 className="font-semibold text-[15px] text-fg" role="status">
          Completing the installation…
        </h2>
      </Card>
    );
  }
  if (phase.name === "failed") {
    return (
      <div role="alert">
        <EmptyState
          tone="danger"
          icon={<TriangleAlert />}
          titleAs="h2"
          title={INSTALLATION.failed}
          description={phase.reason ?? "The installation could not be linked to your organization."}
          action={
            <Button
              variant="secondary"
              icon={<RotateCw aria-hidden="true" className="size-4" />}
              onClick={retry}
            >
              {INSTALLATION.retry}
            </Button>
          }
        />
      </div>
    );
  }
  return <Installed />;
}

/** Done: counts down INSTALLATION_COUNTDOWN_SECONDS, then goes to /. */
function Installed() {
  const navigate = useNavigate();
  const [left, setLeft] = useState(INSTALLATION_COUNTDOWN_SECONDS);

  useEffect(() => {
    const timer = setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (left === 0) navigate(href("/"), { replace: true });
  }, [left, navigate]);

  return (
    <EmptyState
      icon={<CircleCheck className="text-success-text" />}
      titleAs="h2"
      title="Installation complete"
      description={
        <span role="status">
          Your repositories are on their way. Going home in {left} {left === 1 ? "second" : "seconds"}…
        </span>
      }
      action={<BackToHome />}
    />
  );
}

function BackToHome() {
  return <ButtonLink to={href("/")}>{INSTALLATION.backToHome}</ButtonLink>;
}
