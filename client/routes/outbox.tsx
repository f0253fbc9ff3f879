import { ExternalLink, Inbox, RotateCw, TriangleAlert } from "lucide-react";
import { href, useRevalidator } from "react-router";
import { Alert, Badge, Button, Card, EmptyState, TextLink } from "../components/ui";
import { loadOutbox } from "../features/accounts/outbox.server";
import { formatDateTime } from "../lib/formats";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/outbox";

export const handle: RouteHandle = { title: "Local outbox" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle("Local outbox", productNameOf(matches)) }];
}

/** Local mode only: a 404 otherwise (see loadOutbox). */
export function loader({ context, request }: Route.LoaderArgs) {
  return loadOutbox(context, request);
}

/** Only web links become links: an e-mail's text is not ours to trust. */
function isWebLink(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** docs/product.md#outbox: the e-mails local mode keeps instead of sending them. */
export default function Outbox({ loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  const refreshing = revalidator.state === "loading";
  return (
    <main className="mx-auto w-full max-w-3xl px-4 py-10 sm:py-14">
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex items-center gap-2">
            <h1 className="font-semibold text-2xl text-fg tracking-tight">Local outbox</h1>
            <Badge>Local mode</Badge>
          </div>
          <p className="mt-1.5 max-w-xl text-fg-muted text-sm">
            In local mode no e-mail is sent. Verification and password-reset e-mails land here instead, newest
            first; open their links to go on.
          </p>
        </div>
        <Button
          variant="secondary"
          loading={refreshing}
          icon={<RotateCw aria-hidden="true" className="size-4" />}
          onClick={() => revalidator.revalidate()}
        >
          Refresh
        </Button>
      </div>

      {loaderData.status === "error" ? (
        <Alert tone="danger" title={loaderData.message}>
          Is the backend running? Try again in a moment.
        </Alert>
      ) : loaderData.messages.length === 0 ? (
        <EmptyState
          icon={<Inbox />}
          title="No e-mails yet"
          description="Sign up or ask for a password reset, and the e-mail will appear here."
          titleAs="h2"
        />
      ) : (
        <ul className="space-y-3" aria-label="E-mails">
          {loaderData.messages.map((message) => (
            <Card as="li" key={message.id} className="p-5">
              <h2 className="font-medium text-fg">{message.subject}</h2>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-fg-muted">To</dt>
                <dd className="break-all text-fg">{message.to}</dd>
                <dt className="text-fg-muted">Sent</dt>
                <dd className="text-fg">
                  <time dateTime={message.sentAt}>{formatDateTime(message.sentAt, { seconds: true })}</time>
                </dd>
              </dl>
              {message.links.length > 0 ? (
                <ul className="mt-3 space-y-1.5 text-sm" aria-label="Links">
                  {message.links.map((link) =>
                    isWebLink(link) ? (
                      <li key={link}>
                        <a
                          href={link}
                          className="focus-ring inline-flex max-w-full items-center gap-1.5 break-all rounded-sm font-medium text-accent-text underline-offset-4 hover:underline"
                        >
                          <ExternalLink aria-hidden="true" className="size-3.5 shrink-0" />
                          {link}
                        </a>
                      </li>
                    ) : (
                      <li key={link} className="inline-flex items-center gap-1.5 break-all text-fg-muted">
                        <TriangleAlert aria-hidden="true" className="size-3.5 shrink-0" />
                        {link}
                      </li>
                    ),
                  )}
                </ul>
              ) : null}
              <details className="mt-3 text-sm">
                <summary className="focus-ring cursor-pointer rounded-sm text-fg-muted">
                  Show the e-mail's text
                </summary>
                <pre className="mt-2 whitespace-pre-wrap break-words rounded-md bg-surface-sunken p-3 font-mono text-fg-muted text-xs">
                  {message.text}
                </pre>
              </details>
            </Card>
          ))}
        </ul>
      )}

      <p className="mt-8 text-center text-sm">
        <TextLink to={href("/login")}>Go to sign in</TextLink>
      </p>
    </main>
  );
}
