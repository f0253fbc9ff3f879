/**
 * GitHub's own example webhook payloads (@octokit/webhooks-examples), so tests deliver what GitHub
 * sends rather than shapes we made up. Each call returns a fresh copy to adjust.
 */
import definitions, { type WebhookDefinition } from "@octokit/webhooks-examples";

type EventName = WebhookDefinition["name"];
export type WebhookExample<E extends EventName> = WebhookDefinition<E>["examples"][number];

export function webhookExample<E extends EventName>(event: E, action: string): WebhookExample<E> {
  const example = definitions
    .find((definition) => definition.name === event)
    ?.examples.find((candidate) => "action" in candidate && candidate.action === action);
  if (!example) throw new Error(`No example of ${event}.${action}`);
  return structuredClone(example) as WebhookExample<E>;
}
