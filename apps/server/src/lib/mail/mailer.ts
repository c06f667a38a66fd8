/**
 * Mail provider: SMTP through nodemailer when SMTP_URL is set, otherwise an outbox table that a
 * local user reads at /dev/mailbox. Both behind one interface.
 */
import nodemailer from "nodemailer";
import type { Database } from "../../db/index.ts";
import { mailboxMessages } from "../../db/schema/index.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header fields (e.g. List-Unsubscribe); the dev outbox keeps the mail without them. */
  headers?: Record<string, string>;
}

export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(mail: Mail): Promise<void>;
}

export function createMailer(options: { smtpUrl?: string; from: string; db: Database }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: "smtp",
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
    };
  }
  return {
    kind: "outbox",
    async send(mail) {
      const { headers: _, ...kept } = mail;
      await options.db.insert(mailboxMessages).values({ ...kept, html: mail.html ?? null });
    },
  };
}
