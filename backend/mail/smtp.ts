/** The SMTP adapter of the mail port (mailer.ts), through nodemailer. */
import nodemailer from "nodemailer";
import type { Mailer } from "./mailer.ts";

/** `url`: smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://host:465. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      const { to, subject, text, html } = message;
      await transport.sendMail({ from, to, subject, text, ...(html ? { html } : {}) });
    },
    close: () => transport.close(),
  };
}
