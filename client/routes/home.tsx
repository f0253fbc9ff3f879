import { FolderGit2, MessageSquareText, Plug, Zap } from "lucide-react";
import { botCommandText } from "../../shared/bot-commands.ts";
import type { Project } from "../../shared/contract.ts";
import { ERRORS, TEXT } from "../../shared/messages.ts";
import { ProjectCard, ProjectCardSkeleton } from "../components/projects/project-card";
import { Streamed } from "../components/streamed";
import { ButtonLink, Card, EmptyState, TextLink } from "../components/ui";
import { backendFor } from "../lib/backend.server";
import { loadProjects } from "../lib/projects.server";
import { useProductName } from "../lib/root-data";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
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
  const { session, api } = backendFor(context, request);
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
        <Streamed
          result={projects}
          skeleton={<ProjectGridSkeleton />}
          errorTitle={ERRORS.loadProjects}
          errorDescription="The repository list could not be fetched. Check your connection and try again."
        >
          {(list) => <ProjectsView projects={list} />}
        </Streamed>
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
              While the auto review toggle under Settings → Account Preferences is on (it starts on),{" "}
              {productName} reviews every pull request as soon as it is opened.
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
              Comment{" "}
              <code className="rounded bg-surface-muted px-1 font-mono text-fg">
                {botCommandText(productName)}
              </code>{" "}
              on any pull request to ask for a review whenever you want one, with or without auto review.
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

function ProjectsView({ projects }: { projects: Project[] }) {
  if (projects.length === 0) {
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
  return <ProjectGrid projects={projects} />;
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
