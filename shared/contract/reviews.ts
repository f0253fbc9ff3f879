/**
 * Review runs (docs/product.md#reviews, docs/review-engine.md): findings, runs, their decision log,
 * feedback and AI usage; the bot's commands; CWE links.
 */

/**
 * A review finding, as the built-in reviewer and the AI reviewer produce it, the posting stage
 * posts it and the run pages show it (docs/review-engine.md). One schema for every producer.
 *
 * Where a finding points:
 * - a line: `path`, `line` (right-side, 1-based, inside the diff) and `quote` (that line's text);
 * - a whole file (for example a committed `.env`): `path` only, `line` and `quote` null;
 * - the whole pull request (for example its size): `path`, `line` and `quote` all null.
 */

export const FINDING_RULE_ID_MAX = 100;

export const FINDING_PATH_MAX = 1024;

/** Longer lines (minified code) are cut at this length, with an ellipsis, in `quote`. */
export const FINDING_QUOTE_MAX = 400;

export const FINDING_MESSAGE_MAX = 1000;

/** GET, text/event-stream: a `run` event with the run's summary whenever one of the organisation's runs changes. */
export const REVIEW_EVENTS_PATH = "/api/reviews/events";

/**
 * The bot's commands and handle, shared by the engine that answers them (backend/review/commands.ts)
 * and the pages that name them (/home, the sandbox's pull requests). The handle follows the product
 * name (PRODUCT_NAME "Argus" → `@argus`).
 */

export const BOT_COMMANDS = ["review", "full review", "pause", "resume", "help"] as const;

export type BotCommand = (typeof BOT_COMMANDS)[number];

/** The product name as a code-host handle: lower case, anything but letters and digits a hyphen. */
export function botHandle(productName: string): string {
  return productName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A command as a person comments it: `@argus review`. */
export const botCommandText = (productName: string, command: BotCommand = "review") =>
  `@${botHandle(productName)} ${command}`;

/**
 * Where a weakness is described: a finding's CWE id (shared/contract/reviews.ts) links there, on the
 * run page and in posted comments. A module of its own so that pages without findings never load it.
 */

/** MITRE's page of a weakness: `CWE-89` → https://cwe.mitre.org/data/definitions/89.html. */
export function cweUrl(cwe: string): string {
  return `https://cwe.mitre.org/data/definitions/${cwe.replace(/^CWE-/, "")}.html`;
}
