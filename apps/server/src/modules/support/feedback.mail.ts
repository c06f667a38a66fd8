/** The mail a feedback becomes: who sent it, where in the app, the text, and the screenshots attached. */
import type { Mail, MailAttachment } from "../../lib/mail/mailer.ts";

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function feedbackMail(options: {
  to: string;
  sender: { name: string; email: string };
  subject: string;
  message: string;
  /** The app route it was written on (a path, shown as text). */
  page: string | null;
  screenshots: MailAttachment[];
}): Mail {
  const count = options.screenshots.length;
  const lines = [
    `Feedback from ${options.sender.name} <${options.sender.email}>`,
    ...(options.page ? [`Page: ${options.page}`] : []),
    `Screenshots: ${count === 0 ? "none" : `${count} attached`}`,
    "",
    options.message,
  ];
  return {
    to: options.to,
    subject: `[Redline] Feedback: ${options.subject}`,
    text: lines.join("\n"),
    html: lines.map((line) => (line === "" ? "<br>" : `<p>${escapeHtml(line)}</p>`)).join(""),
    headers: { "Reply-To": `${options.sender.name.replace(/[<>"\r\n]/g, "")} <${options.sender.email}>` },
    attachments: options.screenshots,
  };
}
