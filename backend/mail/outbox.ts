/**
 * The local outbox adapter of the mail port (mailer.ts): e-mails are kept in the database instead
 * of sent, the latest OUTBOX_LIMIT of them, served by GET /auth/outbox and logged with their links,
 * so verification and password reset work on one machine without an SMTP server. Only local mode
 * and development use it (config.ts), which is why its log lines may carry the one-time links.
 */
import { OUTBOX_LIMIT } from "../../shared/constants.ts";
import type { OutboxResponse } from "../../shared/contract/accounts.ts";
import type { Logger } from "../../shared/node/logging.ts";
import type { Db } from "../db/database.ts";
import type { Mailer } from "./mailer.ts";

export function outboxMailer(db: Db, logger: Logger): Mailer {
  return {
    async send(message) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("outbox_messages")
          .values({
            recipient: message.to,
            subject: message.subject,
            text: message.text,
            links: JSON.stringify(message.links),
          })
          .execute();
        const kept = trx
          .selectFrom("outbox_messages")
          .select("id")
          .orderBy("sent_at", "desc")
          .limit(OUTBOX_LIMIT);
        await trx.deleteFrom("outbox_messages").where("id", "not in", kept).execute();
      });
      logger.info(
        { to: message.to, subject: message.subject, links: message.links },
        "e-mail kept in the local outbox (GET /auth/outbox)",
      );
    },
    close() {},
  };
}

/** The outbox's messages, newest first. */
export async function outboxMessages(db: Db): Promise<OutboxResponse["messages"]> {
  const rows = await db
    .selectFrom("outbox_messages")
    .select(["id", "recipient", "subject", "text", "links", "sent_at"])
    .orderBy("sent_at", "desc")
    .limit(OUTBOX_LIMIT)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.recipient,
    subject: row.subject,
    text: row.text,
    links: row.links,
    sentAt: row.sent_at.toISOString(),
  }));
}
