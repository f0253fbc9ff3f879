import { href, Link } from "react-router";
import { TEXT } from "../../../shared/contract/accounts.ts";
import type { Project } from "../../../shared/contract/code-hosts.ts";
import { sandboxPullsHref } from "../../../shared/contract/sandbox.ts";
import { Badge, buttonClasses, Card, Skeleton } from "../../components/ui";
import { cn } from "../../lib/cn";
import { listSearchOf } from "../../lib/list-url";
import { CardIcon } from "./card-icons";
import { repositorySettingsHref } from "./projects";
import { RepositoryName } from "./repository-name";

/** One repository on /home (docs/product.md#home); its icons come from CardIconSprite on the page. */
export function ProjectCard({ project }: { project: Project }) {
  const { properties } = project;
  const title = properties.full_name || project.name;
  const description = properties.description?.trim();

  return (
    <Card as="article" interactive className="flex h-full flex-col" aria-labelledby={`project-${project.id}`}>
      <div className="flex-1 space-y-3 px-5 pt-5 pb-4">
        <div className="flex items-start justify-between gap-3">
          <h3
            id={`project-${project.id}`}
            title={title}
            className="min-w-0 font-semibold text-[15px] text-fg leading-6"
          >
            <RepositoryName name={title} />
          </h3>
          {properties.private ? (
            <Badge icon={<CardIcon name="private" />}>Private</Badge>
          ) : (
            <Badge icon={<CardIcon name="public" />}>Public</Badge>
          )}
        </div>

        <p className={cn("line-clamp-2 text-sm", description ? "text-fg-muted" : "text-fg-subtle italic")}>
          {description || TEXT.noDescription}
        </p>

        <dl className="flex flex-wrap items-center gap-x-4 gap-y-1 text-fg-muted text-xs">
          {properties.default_branch ? (
            <div className="flex items-center gap-1.5">
              <dt>
                <CardIcon name="branch" className="size-3.5" />
                <span className="sr-only">Default branch</span>
              </dt>
              <dd className="font-mono">{properties.default_branch}</dd>
            </div>
          ) : null}
          <div className="flex items-center gap-1.5">
            <dt>
              <CardIcon name="fork" className="size-3.5" />
              <span className="sr-only">Origin</span>
            </dt>
            <dd>{properties.fork ? "Fork" : "Source"}</dd>
          </div>
        </dl>

        <div className="flex flex-wrap gap-1.5">
          {project.active ? (
            <Badge tone="success" icon={<CardIcon name="active" />}>
              Active
            </Badge>
          ) : (
            <Badge>Inactive</Badge>
          )}
          {/* The sandbox delivers its events itself: no webhook to be on or off. */}
          {properties.sandbox ? null : project.webhook_active ? (
            <Badge tone="success" icon={<CardIcon name="webhook" />} title="Webhook is receiving events">
              Webhook
            </Badge>
          ) : (
            <Badge tone="warning" icon={<CardIcon name="webhook" />} title="Webhook is not receiving events">
              Webhook off
            </Badge>
          )}
          {properties.sandbox ? (
            <Badge
              tone="accent"
              icon={<CardIcon name="sandbox" />}
              title="A sample repository of the sandbox code host"
            >
              Sandbox
            </Badge>
          ) : null}
        </div>
      </div>

      <div className="flex items-center justify-between gap-2 border-border border-t px-3 py-2">
        {properties.sandbox ? (
          // A sandbox repository exists only here: its pull requests, not a page on github.com.
          <Link
            to={sandboxPullsHref(project.id)}
            aria-label={`Pull requests of ${title} (sandbox)`}
            className={buttonClasses({ variant: "ghost", size: "sm" })}
          >
            <CardIcon name="pulls" className="size-3.5" />
            Pull requests
          </Link>
        ) : (
          <a
            href={project.external_link}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClasses({ variant: "ghost", size: "sm" })}
          >
            <CardIcon name="external" className="size-3.5" />
            View
            <span className="sr-only"> {title} (opens in a new tab)</span>
          </a>
        )}
        <div className="flex items-center gap-1">
          <Link
            to={`${href("/reviews")}${listSearchOf({}, { projectId: project.id })}`}
            aria-label={`Reviews of ${title}`}
            title="Reviews"
            className={buttonClasses({ variant: "ghost", size: "sm", iconOnly: true })}
          >
            <CardIcon name="reviews" className="size-4" />
          </Link>
          <Link
            to={repositorySettingsHref(project)}
            aria-label={`Settings for ${title}`}
            title="Repository settings"
            className={buttonClasses({ variant: "ghost", size: "sm", iconOnly: true })}
          >
            <CardIcon name="settings" className="size-4" />
          </Link>
        </div>
      </div>
    </Card>
  );
}

/** The loading shape of a ProjectCard. */
export function ProjectCardSkeleton() {
  return (
    <Card className="flex h-full flex-col">
      <div className="flex-1 space-y-3 px-5 pt-5 pb-4">
        <div className="flex items-start justify-between gap-3">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-5 w-14 rounded-full" />
        </div>
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-4/5" />
        <div className="flex gap-1.5 pt-1">
          <Skeleton className="h-5 w-16 rounded-full" />
          <Skeleton className="h-5 w-20 rounded-full" />
        </div>
      </div>
      <div className="flex items-center justify-between border-border border-t px-3 py-2.5">
        <Skeleton className="h-6 w-16" />
        <Skeleton className="size-6" />
      </div>
    </Card>
  );
}
