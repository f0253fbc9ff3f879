import { Copy, KeyRound } from "lucide-react";
import { useId, useRef, useState } from "react";
import type { Integration, ServiceHookSecret } from "../../../shared/contract/code-hosts.ts";
import { AZURE_DEVOPS } from "../../../shared/contract/code-hosts.ts";
import { Alert, Button, useToast } from "../../components/ui";
import { inputClasses } from "../../components/ui/text-field";
import { cn } from "../../lib/cn";
import { integrationsApi } from "./lazy-integrations";

/**
 * An Azure DevOps integration's service hook (docs/operations.md, "Azure DevOps"): its URL, and
 * its secret once, right after the setup or a new secret made it; the page never has it again.
 * Without a secret (set up before hooks had their own) events are refused, and the page says so.
 */
export function ServiceHookPanel({
  integration,
  revealed,
  onRevealed,
}: {
  integration: Integration;
  /** The secret just made, if any: shown this once. */
  revealed: ServiceHookSecret | null;
  onRevealed: (hook: ServiceHookSecret) => void;
}) {
  const stored = integration.activeIntegration?.serviceHook;
  const url = revealed?.url ?? stored?.url;
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  const generating = useRef(false);
  const hintId = useId();

  async function generate() {
    if (generating.current) return;
    generating.current = true;
    setBusy(true);
    const { generateHookSecret } = await integrationsApi.load();
    const outcome = await generateHookSecret();
    if (outcome.ok && outcome.serviceHook) {
      onRevealed(outcome.serviceHook);
      toast({ tone: "success", title: AZURE_DEVOPS.secretGenerated });
    } else {
      toast({ tone: "danger", title: outcome.message ?? AZURE_DEVOPS.secretFailed });
    }
    generating.current = false;
    setBusy(false);
  }

  return (
    <section aria-labelledby="service-hook-title" className="space-y-4 border-border border-t pt-5">
      <h3 id="service-hook-title" className="flex items-center gap-2 font-semibold text-fg">
        <KeyRound aria-hidden="true" className="size-4" />
        {AZURE_DEVOPS.hookTitle}
      </h3>
      {revealed ? (
        <Alert tone="warning">{AZURE_DEVOPS.hookSecretOnce}</Alert>
      ) : stored ? (
        <p className="text-fg-muted text-sm">{AZURE_DEVOPS.hookSecretSet}</p>
      ) : (
        <Alert tone="warning">{AZURE_DEVOPS.hookSecretMissing}</Alert>
      )}
      {url ? <CopyableValue label={AZURE_DEVOPS.hookUrlLabel} value={url} /> : null}
      {revealed ? <CopyableValue label={AZURE_DEVOPS.hookSecretLabel} value={revealed.secret} /> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={generate} loading={busy} aria-describedby={hintId}>
          {busy ? AZURE_DEVOPS.generatingSecret : AZURE_DEVOPS.generateSecret}
        </Button>
        <p id={hintId} className="text-fg-muted text-sm">
          {AZURE_DEVOPS.generateSecretHint}
        </p>
      </div>
    </section>
  );
}

/** A read-only value with its label and a copy button; the copy's result is announced. */
function CopyableValue({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [status, setStatus] = useState("");

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setStatus(AZURE_DEVOPS.copied);
    } catch {
      setStatus(AZURE_DEVOPS.copyFailed);
    }
  }

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="font-medium text-fg text-sm">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className={cn(inputClasses({ width: "min-w-0 flex-1" }), "font-mono")}
        />
        <Button variant="secondary" onClick={copy} aria-label={`${AZURE_DEVOPS.copy} ${label.toLowerCase()}`}>
          <Copy aria-hidden="true" className="size-4" />
          {AZURE_DEVOPS.copy}
        </Button>
      </div>
      <p role="status" aria-live="polite" className="min-h-5 text-fg-muted text-sm">
        {status}
      </p>
    </div>
  );
}
