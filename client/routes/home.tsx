import { FolderGit2, MessageSquareText, Plug, RotateCw, TriangleAlert, Zap } from "lucide-react";
import { Suspense, useEffect } from "react";
import { Await, useLocation, useRevalidator } from "react-router";
import { createApiClient } from "../../shared/api-client.ts";
import type { Project } from "../../shared/contract.ts";
import { ERRORS, TEXT } from "../../shared/messages.ts";
import { ProjectCard, ProjectCardSkeleton } from "../components/projects/project-card";
import { Alert, Button, ButtonLink, Card, EmptyState, Spinner, TextLink } from "../components/ui";
import { gatewayContext } from "../lib/gateway-context";
import { requireSession } from "../lib/guards.server";
import { loadProjects, type ProjectsResult } from "../lib/projects.server";
import { useProductName } from "../lib/root-data";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import { useSignOut } from "../lib/use-sign-out";
import type { Route } from "./+types/home";

export const handle: RouteHandle = { title: "Home" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Home", productNameOf(matches)) }];
}

/**
 * The user comes at once (the first HTML greets them); the repositories stream in: the promise is
 * returned un-awaited and resolves to a ProjectsResult, never rejects.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const session = requireSession(context, request);
  const { backendUrl, requestId } = context.get(gatewayContext);
  const api = createApiClient({
    baseUrl: backendUrl,
    token: session.token,
    requestId,
    signal: request.signal,
  });
  return { user: session.user, projects: loadProjects(api) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { user, projects } = loaderData;
  const productName = useProductName();
  const firstName = (user.name || user.email).split(/\s+/)[0];

  return (
    <div className="space-y-8">
      <section aria-labelledby="greeting" className="space-y-1">
        <h2 id="greeting" className="font-semibold text-2xl text-fg tracking-tight">
          Welcome back, {firstName}
        </h2>
        <p className="text-fg-muted text-sm">
          {user.orgName ? `${user.orgName} · ` : ""}Here are the repositories {productName} reviews for you.
        </p>
      </section>

      <ReviewsIntro productName={productName} />

      <section aria-labelledby="repositories" className="space-y-4">
        <h2 id="repositories" className="font-semibold text-base text-fg">
          Repositories
        </h2>
        <Suspense key={keyOf(projects)} fallback={<ProjectGridSkeleton />}>
          <Await resolve={projects} errorElement={<ProjectsError />}>
            {(result) => <ProjectsView result={result} />}
          </Await>
        </Suspense>
      </section>
    </div>
  );
}

function ReviewsIntro({ productName }: { productName: string }) {
  return (
    <Card as="section" aria-labelledby="reviews-intro" className="overflow-hidden">
      <div className="border-border border-b bg-surface-muted/60 px-5 py-3.5">
        <h2 id="reviews-intro" className="font-semibold text-fg text-sm">
          How to get a review
        </h2>
      </div>
      <div className="grid gap-px bg-border sm:grid-cols-2">
        <div className="flex gap-3.5 bg-surface p-5">
          <IntroIcon>
            <Zap className="size-4" />
          </IntroIcon>
          <div className="space-y-1">
            <h3 className="font-medium text-fg text-sm">Automatic reviews</h3>
            <p className="text-fg-muted text-sm">
              Turn on the auto review toggle under Settings → Account Preferences, and {productName} reviews
              every pull request as soon as it is opened.
            </p>
            <TextLink to="/settings" className="inline-block pt-1 text-sm">
              Open settings
            </TextLink>
          </div>
        </div>
        <div className="flex gap-3.5 bg-surface p-5">
          <IntroIcon>
            <MessageSquareText className="size-4" />
          </IntroIcon>
          <div className="space-y-1">
            <h3 className="font-medium text-fg text-sm">Manual reviews</h3>
            <p className="text-fg-muted text-sm">
              Comment the {productName} bot command on any pull request to ask for a review whenever you want
              one, with or without auto review.
            </p>
          </div>
        </div>
      </div>
    </Card>
  );
}

function IntroIcon({ children }: { children: React.ReactNode }) {
  return (
    <span
      aria-hidden="true"
      className="flex size-8 shrink-0 items-center justify-center rounded-md bg-accent-soft text-accent-text"
    >
      {children}
    </span>
  );
}

function ProjectsView({ result }: { result: ProjectsResult }) {
  if (result.status === "unauthorized") return <SessionEnded />;
  if (result.status === "error") return <ProjectsError message={result.message} />;
  if (result.projects.length === 0) {
    return (
      <EmptyState
        icon={<FolderGit2 />}
        title={TEXT.noProjects}
        description="Connect an integration and the repositories it can see will show up here."
        action={
          <ButtonLink
            to="/integrations"
            variant="primary"
            icon={<Plug aria-hidden="true" className="size-4" />}
          >
            Connect an integration
          </ButtonLink>
        }
      />
    );
  }
  return <ProjectGrid projects={result.projects} />;
}

function ProjectGrid({ projects }: { projects: Project[] }) {
  return (
    <>
      <p className="-mt-2 text-fg-muted text-sm">
        {projects.length} {projects.length === 1 ? "repository" : "repositories"}
      </p>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {projects.map((project) => (
          <li key={project.id}>
            <ProjectCard project={project} />
          </li>
        ))}
      </ul>
    </>
  );
}

function ProjectGridSkeleton() {
  return (
    <div aria-busy="true">
      <p className="sr-only" role="status">
        Loading repositories…
      </p>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-hidden="true">
        {[0, 1, 2].map((n) => (
          <li key={n}>
            <ProjectCardSkeleton />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ProjectsError({ message = ERRORS.loadProjects }: { message?: string }) {
  const revalidator = useRevalidator();
  return (
    <div role="alert">
      <EmptyState
        tone="danger"
        icon={<TriangleAlert />}
        title={message}
        description="The repository list could not be fetched. Check your connection and try again."
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
