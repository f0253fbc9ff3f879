/**
 * The mail port: the backend hands over a finished message and does not care how it leaves. Two
 * adapters: SMTP (smtp.ts, when SMTP_URL is set) and the local outbox (outbox.ts, local mode and
 * development only; config.ts refuses production without one or the other).
 */
import type { Logger } from "../../shared/node/logging.ts";
import type { BackendConfig } from "../config.ts";
import type { Db } from "../db/database.ts";
import { outboxMailer } from "./outbox.ts";
import { smtpMailer } from "./smtp.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML, sent beside the text as its alternative; the outbox keeps the text. */
  html?: string | undefined;
  /** The links the text carries, kept apart so the outbox can list them. */
  links: string[];
}

export interface Mailer {
  /** Rejects when the message could not be handed over. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(mail: BackendConfig["mail"], db: Db, logger: Logger): Mailer {
  return mail.transport.kind === "smtp"
    ? smtpMailer(mail.transport.url, mail.from)
    : outboxMailer(db, logger);
}
