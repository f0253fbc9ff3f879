/**
 * Bot commands in pull-request comments: `@<bot> review`, `full review`, `pause`, `resume` and
 * `help` (the list and the handle are in shared/bot-commands.ts, which the pages name them from).
 * Only a line that starts with the mention counts: a quoted reply (`> @argus review`) or a fenced
 * code block repeating a command must not run it again.
 */
import { BOT_COMMANDS, type BotCommand, botHandle } from "../../../shared/contract/reviews.ts";

export { BOT_COMMANDS, type BotCommand, botHandle };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The first command addressed to the bot in a comment, or undefined. The handle must end at a
 * word boundary (`@argus-bot review` is someone else) and the command must be the whole line
 * (`@argus review please` is not a command: a typo should not trigger a review).
 */
export function parseBotCommand(body: string, productName: string): BotCommand | undefined {
  const handle = botHandle(productName);
  if (!handle) return undefined;
  const line = new RegExp(`^@${escapeRegExp(handle)}(?![\\w-])\\s+(.+?)\\s*$`, "i");
  let fenced = false;
  for (const raw of body.split(/\r?\n/)) {
    const text = raw.trim();
    if (text.startsWith("```") || text.startsWith("~~~")) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const words = line.exec(text)?.[1]?.toLowerCase().replace(/\s+/g, " ");
    const command = BOT_COMMANDS.find((known) => known === words);
    if (command) return command;
  }
  return undefined;
}
