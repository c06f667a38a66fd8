/** The mail a project's owner gets for a review request: who asks, for which page, and their note. */
import { Action, h, Layout, lines, Muted, Paragraph, toMail, Url } from "../../lib/mail/layout.ts";
import type { Mail } from "../../lib/mail/mailer.ts";

export function reviewRequestMail(options: {
  to: string;
  projectTitle: string;
  requester: { name: string; email: string };
  url: string;
  message: string;
  projectUrl: string;
}): Promise<Mail> {
  const { requester } = options;
  return toMail(
    options.to,
    `${requester.name} asked you to review a page`,
    h(
      Layout,
      { preview: `${requester.name} asked you to review ${options.url}` },
      Paragraph(`${requester.name} <${requester.email}> asked you to review this page:`),
      Paragraph(Url(options.url)),
      options.message ? Paragraph(lines(options.message.split("\n"))) : null,
      Muted(`Sent from the review link of your project "${options.projectTitle}". Reply to answer them.`),
      Action("Open the project", options.projectUrl),
    ),
    // Answering the mail answers the visitor; the visitor's address is never a recipient.
    { "Reply-To": `${requester.name.replace(/[<>"\r\n,;]/g, "")} <${requester.email}>` },
  );
}
