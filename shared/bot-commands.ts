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
