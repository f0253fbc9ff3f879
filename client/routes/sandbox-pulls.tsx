import { FilePen, GitPullRequest, GitPullRequestCreate, SearchX } from "lucide-react";
import { type FormEvent, useState } from "react";
import { href, Link, useNavigate } from "react-router";
import type { SandboxPullCreate, SandboxPullsData } from "../../shared/contract/sandbox.ts";
import { SANDBOX_TITLE_MAX, sandboxPullHref } from "../../shared/contract/sandbox.ts";
import { Settled } from "../components/streamed";
import { BackLink, Button, Card, EmptyState, TextField, useToast } from "../components/ui";
import { reviewCalls } from "../features/reviews/lazy-reviews";
import { loadSandboxPulls } from "../features/reviews/reviews.server";
import { FileEditor, useFileEdit } from "../features/sandbox/file-editor";
import { SandboxBadge } from "../features/sandbox/sandbox-badge";
import { backendFor } from "../lib/backend.server";
import { formatDateTime } from "../lib/formats";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/sandbox-pulls";

export const handle: RouteHandle = { title: "Sandbox pull requests" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Sandbox pull requests", productNameOf(matches)) }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  return { pulls: await loadSandboxPulls(api, params.projectId) };
}

/** docs/product.md#sandboxrepositoriesprojectidpulls: open a sandbox pull request and watch it reviewed. */
export default function SandboxPulls({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <BackLink to={href("/home")}>Back to your repositories</BackLink>
      <Settled
        result={loaderData.pulls}
        errorDescription="The sandbox repository could not be fetched. Check your connection and try again."
      >
        {(data) =>
          data ? (
            <PullsPage data={data} />
          ) : (
            <EmptyState
              icon={<SearchX />}
              titleAs="h2"
              title="Not a sandbox repository"
              description="Pull requests can be opened here only in your organization's sandbox repositories."
            />
          )
        }
      </Settled>
    </div>
  );
}

/** Opens the pull request, then goes to its page; a toast says what went wrong. */
function useOpenPull(projectId: string) {
  const navigate = useNavigate();
  const { toast } = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  async function open(body: SandboxPullCreate, what: string) {
    setBusy(what);
    const outcome = await reviewCalls
      .load()
      .then(({ openSandboxPull }) => openSandboxPull(projectId, body))
      .catch(() => ({ ok: false as const, message: "The pull request could not be opened." }));
    setBusy(null);
    if (!outcome.ok) {
      toast({ tone: "danger", title: outcome.message });
      return;
    }
    toast({ tone: "success", title: "Pull request opened", description: "The review starts now." });
    await navigate(sandboxPullHref(outcome.id));
  }
  return { open, busy };
}

function PullsPage({ data }: { data: SandboxPullsData }) {
  const { open, busy } = useOpenPull(data.repository.id);
  return (
    <>
      <section aria-labelledby="sandbox-pulls-title" className="space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="sandbox-pulls-title" className="font-semibold text-2xl text-fg tracking-tight">
            {data.repository.fullName}
          </h2>
          <SandboxBadge />
        </div>
        <p className="text-fg-muted text-sm">
          A sample repository of the sandbox code host. Open a pull request and the review appears on it as it
          would on GitHub: a summary and comments on the lines.
        </p>
      </section>

      {/* What a returning visitor comes back for first, above the ways to open more. */}
      <section aria-labelledby="pulls-title" className="space-y-3">
        <h2 id="pulls-title" className="font-semibold text-base text-fg">
          Pull requests
        </h2>
        {data.pulls.length === 0 ? (
          <p className="text-fg-muted text-sm">No pull requests yet: open one from a template below.</p>
        ) : (
          <Card>
            <ul className="divide-y divide-border">
              {data.pulls.map((pull) => (
                <li key={pull.id} className="flex flex-wrap items-center gap-2 px-4 py-3 text-sm">
                  <GitPullRequest aria-hidden="true" className="size-4 text-success-text" />
                  <Link
                    to={sandboxPullHref(pull.id)}
                    className="focus-ring rounded-sm font-medium text-fg hover:underline"
                  >
                    {pull.title}
                  </Link>
                  <span className="text-fg-muted">
                    #{pull.number} by {pull.author} · {formatDateTime(pull.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </section>

      <section aria-labelledby="templates-title" className="space-y-3">
        <h2 id="templates-title" className="font-semibold text-base text-fg">
          Open a pull request from a template
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2">
          {data.templates.map((template) => (
            <li key={template.id}>
              <Card
                as="article"
                aria-labelledby={`template-${template.id}`}
                className="flex h-full flex-col gap-3 p-4"
              >
                <div className="flex-1 space-y-1">
                  <h3 id={`template-${template.id}`} className="font-medium text-fg text-sm">
                    {template.title}
                  </h3>
                  <p className="text-fg-muted text-sm">{template.description}</p>
                  <p className="font-mono text-fg-subtle text-xs">{template.path}</p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  loading={busy === template.id}
                  disabled={busy !== null}
                  icon={<GitPullRequestCreate aria-hidden="true" className="size-4" />}
                  aria-label={`Open pull request: ${template.title}`}
                  onPointerEnter={reviewCalls.preload}
                  onFocus={reviewCalls.preload}
                  onClick={() => void open({ template: template.id }, template.id)}
                >
                  Open pull request
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <EditFile data={data} busy={busy} onOpen={(body) => open(body, "edit")} />
    </>
  );
}

function EditFile({
  data,
  busy,
  onOpen,
}: {
  data: SandboxPullsData;
  busy: string | null;
  onOpen: (body: SandboxPullCreate) => Promise<void>;
}) {
  const edit = useFileEdit(data.files);
  const { path, content } = edit;
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) {
      setError("Give the pull request a title.");
      return;
    }
    setError(undefined);
    void onOpen({ title: title.trim(), path, content });
  }

  return (
    <Card as="section" aria-labelledby="edit-title" className="space-y-4 p-5">
      <h2 id="edit-title" className="flex items-center gap-2 font-semibold text-base text-fg">
        <FilePen aria-hidden="true" className="size-4" />
        Or edit a file
      </h2>
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField
          label="Title"
          value={title}
          maxLength={SANDBOX_TITLE_MAX}
          error={error}
          onChange={(event) => setTitle(event.target.value)}
        />
        <FileEditor files={data.files} edit={edit} rows={16} />
        <div className="flex justify-end">
          <Button
            type="submit"
            loading={busy === "edit"}
            disabled={busy !== null || !path}
            icon={<GitPullRequestCreate aria-hidden="true" className="size-4" />}
            onPointerEnter={reviewCalls.preload}
            onFocus={reviewCalls.preload}
          >
            Open pull request with this change
          </Button>
        </div>
      </form>
    </Card>
  );
}
