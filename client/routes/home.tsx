import { FolderGit2, MessageSquareText, Plug, Search, Zap } from "lucide-react";
import { Form, href, Link } from "react-router";
import { ERRORS, TEXT } from "../../shared/contract/accounts.ts";
import { pageCount, SEARCH_MAX } from "../../shared/contract/paging.ts";
import { botCommandText } from "../../shared/contract/reviews.ts";
import {
  DEFAULT_SETTINGS_PROVIDER,
  SETTINGS_PROVIDERS,
  type SettingsProvider,
} from "../../shared/settings-catalogue.ts";
import { Pager } from "../components/pager";
import { Streamed } from "../components/streamed";
import { Button, ButtonLink, Card, EmptyState, TextField, TextLink } from "../components/ui";
import { CardIconSprite } from "../features/code-hosts/card-icons";
import { ProjectCard, ProjectCardSkeleton } from "../features/code-hosts/project-card";
import { loadProjects, type ProjectsPage } from "../features/code-hosts/projects.server";
import { backendFor } from "../lib/backend.server";
import { cn } from "../lib/cn";
import { confirmedUser } from "../lib/guards.server";
import { type ListState, listSearchOf, listStateOf } from "../lib/list-url";
import { useProductName } from "../lib/root-data";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import { useFilterSubmit } from "../lib/use-filter-submit";
import type { Route } from "./+types/home";

export const handle: RouteHandle = { title: "Home" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Home", productNameOf(matches)) }];
}

/**
 * The first HTML greets the user with the names the backend confirmed (the repositories' answer
 * carries them, docs/decisions/049); the repositories stream in: the promise is returned un-awaited
 * and resolves to a ProjectsResult, never rejects.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  const state = listStateOf(request.url);
  const codeHost = codeHostOf(request.url);
  const projects = loadProjects(api, state, codeHost);
  return { user: await confirmedUser(context, request), state, codeHost, projects };
}

/** The code host whose repositories are listed: `?integrationName=`, GitHub when absent or unknown. */
function codeHostOf(url: string): SettingsProvider {
  const asked = new URL(url).searchParams.get("integrationName");
  return SETTINGS_PROVIDERS.find((provider) => provider.value === asked)?.value ?? DEFAULT_SETTINGS_PROVIDER;
}

function codeHostLabel(codeHost: SettingsProvider): string {
  return SETTINGS_PROVIDERS.find((provider) => provider.value === codeHost)?.label ?? codeHost;
}

/** The query that keeps the code host (left out when it is the default) beside the list's state. */
function homeHref(codeHost: SettingsProvider, state: Partial<ListState> = {}): string {
  const integrationName = codeHost === DEFAULT_SETTINGS_PROVIDER ? undefined : codeHost;
  return `/home${listSearchOf(state, { integrationName })}`;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { user, state, codeHost, projects } = loaderData;
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
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <h2 id="repositories" className="font-semibold text-base text-fg">
              Repositories
            </h2>
            <CodeHostChoice codeHost={codeHost} />
          </div>
          <RepositorySearch search={state.search} codeHost={codeHost} />
        </div>
        <Streamed
          result={projects}
          skeleton={<ProjectGridSkeleton />}
          errorTitle={ERRORS.loadProjects}
          errorDescription="The repository list could not be fetched. Check your connection and try again."
        >
          {(list) => <ProjectsView list={list} search={state.search} codeHost={codeHost} />}
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
            <TextLink to={href("/settings")} className="inline-block pt-1 text-sm">
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

/** Which code host's repositories are listed: links, so each list has its URL and needs no script. */
function CodeHostChoice({ codeHost }: { codeHost: SettingsProvider }) {
  return (
    <nav
      aria-label="Code host"
      className="inline-flex rounded-md border border-border bg-surface-muted p-0.5"
    >
      {SETTINGS_PROVIDERS.map(({ value, label }) => (
        <Link
          key={value}
          to={homeHref(value)}
          aria-current={value === codeHost ? "page" : undefined}
          className={cn(
            "focus-ring rounded px-3 py-1 font-medium text-sm",
            value === codeHost ? "bg-surface text-fg shadow-card" : "text-fg-muted hover:text-fg",
          )}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}

/**
 * The search: a GET form, so the search is in the URL (a link or the back button keeps it) and works
 * before hydration; a new search starts at the first page, on the same code host.
 */
function RepositorySearch({ search, codeHost }: { search: string; codeHost: SettingsProvider }) {
  const onSubmit = useFilterSubmit();
  return (
    <Form
      method="get"
      role="search"
      className="flex w-full items-end gap-2 sm:w-auto"
      aria-label="Repositories"
      onSubmit={onSubmit}
    >
      {codeHost === DEFAULT_SETTINGS_PROVIDER ? null : (
        <input type="hidden" name="integrationName" value={codeHost} />
      )}
      <TextField
        key={search}
        className="min-w-0 flex-1 sm:w-64 sm:flex-none"
        label="Search repositories"
        type="search"
        name="search"
        defaultValue={search}
        maxLength={SEARCH_MAX}
        autoComplete="off"
      />
      <Button
        type="submit"
        variant="secondary"
        size="field"
        icon={<Search aria-hidden="true" className="size-4" />}
      >
        Search
      </Button>
    </Form>
  );
}

interface ListProps {
  list: ProjectsPage;
  search: string;
  codeHost: SettingsProvider;
}

function ProjectsView({ list, search, codeHost }: ListProps) {
  if (list.page.total === 0 && search) {
    return (
      <EmptyState
        icon={<Search />}
        title={`No repository matches “${search}”`}
        description="Try another part of its name."
        action={<ButtonLink to={homeHref(codeHost)}>Show all repositories</ButtonLink>}
      />
    );
  }
  if (list.page.total === 0) {
    return (
      <EmptyState
        icon={<FolderGit2 />}
        title={TEXT.noProjects}
        description={`Connect ${codeHostLabel(codeHost)} and the repositories it can see will show up here.`}
        action={
          <ButtonLink
            to={href("/integrations/:integrationName", { integrationName: codeHost })}
            variant="primary"
            icon={<Plug aria-hidden="true" className="size-4" />}
          >
            Connect {codeHostLabel(codeHost)}
          </ButtonLink>
        }
      />
    );
  }
  return <ProjectGrid list={list} search={search} codeHost={codeHost} />;
}

function ProjectGrid({ list, search, codeHost }: ListProps) {
  const { projects, page } = list;
  return (
    <>
      <p className="-mt-2 text-fg-muted text-sm">
        {page.total} {page.total === 1 ? "repository" : "repositories"}
        {search ? ` match “${search}”` : ""}
      </p>
      <CardIconSprite />
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {projects.map((project) => (
          <li key={project.id}>
            <ProjectCard project={project} />
          </li>
        ))}
      </ul>
      <Pager
        label="Repository pages"
        page={page.page}
        pageCount={pageCount(page)}
        hrefOf={(n) => homeHref(codeHost, { search, page: n })}
      />
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
