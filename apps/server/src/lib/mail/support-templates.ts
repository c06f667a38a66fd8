/**
 * Mail to the installation's own addresses (react-email, the one layout of layout.ts): Contact Us and plan
 * requests, Help → Send Feedback with its screenshots attached, and each 'Need help?' message. Each is
 * Reply-To its sender, so answering the mail answers the person; none carries an unsubscribe header.
 */
import { h, Layout, lines, Muted, Paragraph, toMail } from "./layout.ts";
import type { Mail, MailAttachment } from "./mailer.ts";

interface Sender {
  name: string;
  email: string;
}

/** The sender's name as a header's display name (no quotes, brackets or line breaks). */
const replyTo = (sender: Sender) => ({
  "Reply-To": `${sender.name.replace(/[<>"\r\n]/g, "")} <${sender.email}>`,
});
/** What a person wrote, line by line ("(no message)" when they wrote nothing). */
const written = (message: string) => Paragraph(lines((message || "(no message)").split("\n")));

/** A message for the installation's support address (Contact Us, a plan request); replies go to the sender. */
export function supportMail(options: {
  to: string;
  kind: "contact" | "pro-request";
  sender: Sender;
  subject: string;
  message: string;
  details?: Record<string, unknown>;
}): Promise<Mail> {
  const label = options.kind === "contact" ? "Contact Us" : "Plan request";
  const details = Object.entries(options.details ?? {}).map(([key, value]) => `${key}: ${String(value)}`);
  return toMail(
    options.to,
    `[Redline] ${label}: ${options.subject}`,
    h(
      Layout,
      { preview: `${label} from ${options.sender.name}` },
      Paragraph(`${label} from ${options.sender.name} <${options.sender.email}>`),
      details.length > 0 && Muted(lines(details)),
      written(options.message),
    ),
    replyTo(options.sender),
  );
}

/** Help → Send Feedback: who sent it, where in the app, the text, and the screenshots attached. */
export function feedbackMail(options: {
  to: string;
  sender: Sender;
  subject: string;
  message: string;
  /** The app route it was written on (a path, shown as text). */
  page: string | null;
  screenshots: MailAttachment[];
}): Promise<Mail> {
  const count = options.screenshots.length;
  const about = [
    ...(options.page ? [`Page: ${options.page}`] : []),
    `Screenshots: ${count === 0 ? "none" : `${count} attached`}`,
  ];
  return toMail(
    options.to,
    `[Redline] Feedback: ${options.subject}`,
    h(
      Layout,
      { preview: `Feedback from ${options.sender.name}` },
      Paragraph(`Feedback from ${options.sender.name} <${options.sender.email}>`),
      Muted(lines(about)),
      written(options.message),
    ),
    replyTo(options.sender),
    options.screenshots,
  );
}

/** A 'Need help?' message of a user's support conversation, with the names of its attachments. */
export function supportConversationMail(options: {
  to: string;
  sender: Sender;
  message: string;
  attachments: string[];
}): Promise<Mail> {
  const name = options.sender.name.replace(/[<>"\r\n]/g, "");
  return toMail(
    options.to,
    `[Redline] Need help? from ${name}`,
    h(
      Layout,
      { preview: `Need help? message from ${options.sender.name}` },
      Paragraph(`Need help? message from ${options.sender.name} <${options.sender.email}>`),
      written(options.message),
      options.attachments.length > 0 && Muted(`Attachments: ${options.attachments.join(", ")}`),
    ),
    replyTo(options.sender),
  );
}
