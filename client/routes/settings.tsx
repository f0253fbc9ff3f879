import { Bot, FolderX, Plug, SlidersHorizontal, Unplug } from "lucide-react";
import { useEffect } from "react";
import { href, useNavigate, useSearchParams } from "react-router";
import type { Integration } from "../../shared/contract/code-hosts.ts";
import { INTEGRATIONS } from "../../shared/contract/code-hosts.ts";
import { SETTINGS } from "../../shared/contract/settings.ts";
import {
  DEFAULT_SETTINGS_PROVIDER,
  SETTING_CATEGORIES,
  SETTINGS_PROVIDERS,
} from "../../shared/settings-catalogue.ts";
import { Streamed } from "../components/streamed";
import { BackLink, ButtonLink, Card, EmptyState, SelectField, Spinner, TextLink } from "../components/ui";
import { IntegrationIcon } from "../features/code-hosts/integration-icon";
import { settingsApi } from "../features/settings/lazy-settings";
import { loadSettingsPage } from "../features/settings/settings.server";
import { SettingsEditor } from "../features/settings/settings-editor";
import { organizationSettingsHref } from "../features/settings/settings-href";
import {
  type SettingsPage,
  type SettingsPageQuery,
  settingsPageQuery,
  settingsTitle,
} from "../features/settings/settings-page";
import { keepTemplates } from "../features/settings/settings-templates-cache";
import { SuppressedFindings } from "../features/settings/suppressed-findings";
import { TeamRulesList } from "../features/settings/team-rules";
import { backendFor } from "../lib/backend.server";
import type { LoadResult } from "../lib/load-result.server";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/settings";

export const handle: RouteHandle = { title: "Settings" };

export function meta({ matches, location }: Route.MetaArgs) {
  const title = settingsTitle(settingsPageQuery(new URLSearchParams(location.search)));
  return [{ title: documentTitle(title, productNameOf(matches)) }];
}

/** The first HTML: loaded on the server and streamed; the promise never rejects. */
export function loader({ context, request }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  const query = settingsPageQuery(new URL(request.url).searchParams);
  return { query, page: loadSettingsPage(api, query) };
}

/**
 * Client navigations (another provider, a repository's settings link, Retry) load from the browser,
 * with the templates from the cache once loaded (docs/product.md#settings).
 */
export function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = settingsPageQuery(new URL(request.url).searchParams);
  const page = settingsApi.load().then(
    (api) => api.loadSettingsPage(query),
    (): LoadResult<SettingsPage> => ({ status: "error", message: SETTINGS.loadFailed }),
  );
  return { query, page };
}

/** docs/product.md#settings */
export default function SettingsRoute({ loaderData }: Route.ComponentProps) {
  const { query, page } = loaderData;
  const repository = query.repositoryId !== null;
  return (
    <section aria-labelledby="settings-title" className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h2 id="settings-title" className="font-semibold text-2xl text-fg tracking-tight">
            {settingsTitle(query)}
          </h2>
          <p className="text-fg-muted text-sm">
            {repository
              ? "Review settings of one repository. Anything it does not set comes from your organization."
              : "Review settings of every repository on this code host, unless a repository sets its own."}
          </p>
        </div>
        {repository ? null : <ProviderSelect value={query.integrationName ?? DEFAULT_SETTINGS_PROVIDER} />}
      </div>
      {repository ? null : (
        <TextLink to={href("/settings/ai-model")} className="inline-flex items-center gap-1.5 text-sm">
          <Bot aria-hidden="true" className="size-4" />
          AI model: the model the review engine asks after the built-in reviewer
        </TextLink>
      )}
      <Streamed
        result={page}
        skeleton={<SettingsLoading />}
        errorTitle={SETTINGS.loadFailed}
        errorDescription="The settings could not be fetched. Check your connection and try again."
      >
        {(data) => <SettingsBody page={data} query={query} />}
      </Streamed>
    </section>
  );
}

/** The organisation view's code host; the choice is kept in the query string. */
function ProviderSelect({ value }: { value: string }) {
  const navigate = useNavigate();
  const known = SETTINGS_PROVIDERS.some((provider) => provider.value === value);
  const options = known ? SETTINGS_PROVIDERS : [...SETTINGS_PROVIDERS, { value, label: value }];
  return (
    <SelectField
      label="Provider"
      className="w-56"
      value={value}
      options={options}
      onChange={(event) => navigate(organizationSettingsHref(event.target.value))}
    />
  );
}

function SettingsBody({ page, query }: { page: SettingsPage; query: SettingsPageQuery }) {
  if (page.kind === "unknown-integration") {
    return (
      <EmptyState
        icon={<Unplug />}
        title={INTEGRATIONS.notFound}
        description={`There is no code host named "${page.integrationName}". Pick one from the Provider list.`}
      />
    );
  }
  if (page.kind === "unknown-repository") {
    return (
      <EmptyState
        icon={<FolderX />}
        title={SETTINGS.repositoryNotFound}
        description="No repository of your organization has this id: it may have been removed, or the link is wrong."
        action={<ButtonLink to={href("/home")}>Back to Home</ButtonLink>}
      />
    );
  }
  if (page.kind === "connect") return <ConnectCard integration={page.integration} />;
  return <ReadySettings page={page} query={query} />;
}

function ReadySettings({
  page,
  query,
}: {
  page: Extract<SettingsPage, { kind: "ready" }>;
  query: SettingsPageQuery;
}) {
  const { settings, templates } = page;
  // A link may name the tab to open (the run page's link to the findings marked as noise).
  const [search] = useSearchParams();
  // What the first HTML brought is kept for client navigations (effects run in the browser only).
  useEffect(() => keepTemplates(templates), [templates]);
  const repository = settings.repository;
  return (
    <div className="space-y-5">
      {repository ? (
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <p className="text-fg">
            <span className="text-fg-muted">Repository </span>
            <span className="font-medium font-mono">{repository.full_name}</span>
          </p>
          <BackLink to={organizationSettingsHref(settings.integrationName)}>Organization settings</BackLink>
        </div>
      ) : null}
      {templates.length === 0 ? (
        <EmptyState icon={<SlidersHorizontal />} title={SETTINGS.noTemplates} />
      ) : (
        <SettingsEditor
          initialTab={search.get("tab")}
          templates={templates}
          settings={settings}
          scope={{
            integrationName: settings.integrationName,
            integrationKey: query.integrationKey,
            repositoryId: repository?.id ?? null,
          }}
          extras={{
            [SETTING_CATEGORIES.builtInRules]: (
              <>
                <TeamRulesList teamRules={settings.teamRules} />
                {repository ? <SuppressedFindings repositoryId={repository.id} /> : null}
              </>
            ),
          }}
        />
      )}
    </div>
  );
}

function ConnectCard({ integration }: { integration: Integration }) {
  const title = SETTINGS.connectTo(integration.display_name);
  return (
    <Card as="section" aria-labelledby="connect-integration">
      <div className="flex items-start gap-4 px-6 py-5">
        <IntegrationIcon integration={integration} className="size-12" />
        <div className="min-w-0 flex-1 space-y-1">
          <h3 id="connect-integration" className="font-semibold text-fg text-lg">
            {title}
          </h3>
          <p className="text-fg-muted text-sm">{integration.description}</p>
          <p className="text-fg-muted text-sm">Once it is connected, its review settings show here.</p>
        </div>
      </div>
      <div className="flex justify-end border-border border-t px-6 py-3">
        <ButtonLink
          to={href("/integrations/:integrationName", { integrationName: integration.name })}
          variant="primary"
          icon={<Plug aria-hidden="true" className="size-4" />}
          aria-label={`${INTEGRATIONS.connect} ${integration.display_name}`}
        >
          {INTEGRATIONS.connect}
        </ButtonLink>
      </div>
    </Card>
  );
}

function SettingsLoading() {
  return (
    <div aria-busy="true" className="flex items-center gap-2 py-10 text-fg-muted text-sm" role="status">
      <Spinner size="sm" />
      {SETTINGS.loading}
    </div>
  );
}
