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
  /** Files sent with the mail (feedback screenshots), base64 so the durable outbox can keep them as JSON.
   *  The dev outbox keeps only their names, in the text. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** The file's bytes, base64. */
  content: string;
}

/** A mail, or one still being rendered (templates.ts renders react-email templates asynchronously). */
export type MailInput = Mail | Promise<Mail>;

export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(mail: MailInput): Promise<void>;
}

export function createMailer(options: { smtpUrl?: string; from: string; db: Database }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: "smtp",
      async send(input) {
        const mail = await input;
        const attachments = mail.attachments?.map((file) => ({ ...file, encoding: "base64" }));
        await transport.sendMail({ from: options.from, ...mail, attachments });
      },
    };
  }
  return {
    kind: "outbox",
    async send(input) {
      const mail = await input;
      const { headers: _, attachments, ...kept } = mail;
      const names = attachments?.map((file) => file.filename).join(", ");
      const text = names ? `${kept.text}\n\nAttached: ${names}` : kept.text;
      await options.db.insert(mailboxMessages).values({ ...kept, text, html: mail.html ?? null });
    },
  };
}
