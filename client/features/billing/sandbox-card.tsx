import { FlaskRound } from "lucide-react";
import type { ReactNode } from "react";
import { Badge, Card } from "../../components/ui";
import { SANDBOX_BILLING_TEXT as T } from "./billing-text";

/** The frame of the sandbox's billing pages: said to be a sandbox, in words, at the top. */
export function SandboxCard({
  id,
  title,
  explanation,
  actions,
  children,
}: {
  id: string;
  title: string;
  explanation: string;
  actions: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card as="section" aria-labelledby={id} className="mx-auto max-w-2xl">
      <div className="space-y-2 border-border border-b px-6 py-5">
        <div className="flex items-center gap-2">
          <FlaskRound aria-hidden="true" className="size-5 text-accent-text" />
          <h2 id={id} className="font-semibold text-fg text-xl tracking-tight">
            {title}
          </h2>
          <Badge tone="accent">{T.badge}</Badge>
        </div>
        <p className="text-fg-muted text-sm">{explanation}</p>
      </div>
      <div className="space-y-4 px-6 py-5">{children}</div>
      <div className="flex justify-end gap-2 border-border border-t px-6 py-4">{actions}</div>
    </Card>
  );
}

/** A term and its value, in the `<dl>` of a sandbox page. */
export function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-fg-muted">{term}</dt>
      <dd className="break-all text-fg">{children}</dd>
    </>
  );
}
