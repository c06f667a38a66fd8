/**
 * Every mail the instance writes, as react-email templates (issue #16): one shared layout, and both parts
 * rendered from the same tree — the HTML, and the plain text react-email derives from it — so the two
 * never say different things. React escapes every value, so titles and names typed by people are text.
 * No JSX (the server is plain TypeScript): `h` is `createElement`.
 *
 * The first web link of a mail's text is its action (verify, open the comment …); tests and people alike
 * follow it. Only notification mail carries List-Unsubscribe headers (RFC 8058); account mail never does.
 */
import {
  Body,
  Button,
  Container,
  Head,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import { render, toPlainText } from "@react-email/render";
import { Fragment, createElement as h, type ReactNode } from "react";
// react-email's render imports this lazily: loaded with the app instead, not by the first mail of a request.
import "react-dom/server";
import type { Mail } from "./mailer.ts";

const ACCENT = "#e5383b";
const FONT = "Inter, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const styles = {
  body: { backgroundColor: "#f5f5f5", fontFamily: FONT, margin: 0, padding: "24px 0" },
  container: { backgroundColor: "#ffffff", borderRadius: 8, padding: "24px 32px", maxWidth: 560 },
  text: { color: "#1a1a1a", fontSize: 15, lineHeight: "24px", margin: "0 0 16px" },
  muted: { color: "#666666", fontSize: 13, lineHeight: "20px", margin: "0 0 8px" },
  button: {
    backgroundColor: ACCENT,
    borderRadius: 6,
    color: "#ffffff",
    fontSize: 15,
    padding: "10px 16px",
    textDecoration: "none",
  },
  link: { color: ACCENT },
  hr: { borderColor: "#e5e5e5", margin: "24px 0 16px" },
} as const;

/** The one layout: a white card, the content, a muted footer, signed “— Redline”. */
function Layout(props: { preview: string; children?: ReactNode; footer?: ReactNode }) {
  return h(
    Html,
    { lang: "en" },
    h(Head),
    h(Preview, null, props.preview),
    h(
      Body,
      { style: styles.body },
      h(
        Container,
        { style: styles.container },
        props.children,
        h(Hr, { style: styles.hr }),
        props.footer,
        h(Text, { style: styles.muted }, "— Redline"),
      ),
    ),
  );
}

const Paragraph = (...children: ReactNode[]) => h(Text, { style: styles.text }, ...children);
const Muted = (...children: ReactNode[]) => h(Text, { style: styles.muted }, ...children);
const Action = (label: string, url: string) =>
  h(Section, { style: { margin: "8px 0 24px" } }, h(Button, { href: url, style: styles.button }, label));
/** Lines of text kept as lines (a <br> between them; the text part breaks there too). */
const lines = (texts: string[]) =>
  texts.map((line, index) => h(Fragment, { key: index }, index > 0 ? h("br") : null, line));
/** A link shown as its address, so the text part reads "label: https://…". */
const Url = (url: string) => h(Link, { href: url, style: styles.link }, url);

async function toMail(
  to: string,
  subject: string,
  element: ReactNode,
  headers?: Record<string, string>,
): Promise<Mail> {
  const html = await render(element);
  // From the rendered HTML: the same words (render's own plain-text pass renders the tree again, slower).
  const text = toPlainText(html);
  return { to, subject, text, html, ...(headers && { headers }) };
}

/** A mail that asks for one action: intro, button, the link spelled out, "ignore if not you". */
function actionMail(to: string, subject: string, intro: string, action: string, url: string) {
  return toMail(
    to,
    subject,
    h(
      Layout,
      { preview: intro, footer: Muted("If you did not ask for this, you can ignore this e-mail.") },
      Paragraph(intro),
      Action(action, url),
      Muted("Or open this link: ", Url(url)),
    ),
  );
}

export const verificationMail = (to: string, url: string) =>
  actionMail(
    to,
    "Verify your e-mail for Redline",
    "Welcome to Redline! Confirm your e-mail address to start reviewing.",
    "Verify e-mail",
    url,
  );

export const resetPasswordMail = (to: string, url: string) =>
  actionMail(
    to,
    "Reset your Redline password",
    "Someone asked to reset the password of your Redline account.",
    "Reset password",
    url,
  );

export function projectInviteMail(options: {
  to: string;
  inviter: string;
  projectTitle: string;
  access: string;
  url: string;
  isNewUser: boolean;
}) {
  const intro = `${options.inviter} invited you to a project: “${options.projectTitle}” (${options.access} access).`;
  const action = options.isNewUser ? "Sign up and open the project" : "Open the project";
  return actionMail(options.to, `${options.inviter} invited you to a project`, intro, action, options.url);
}

/** SPEC §7 template `team-invite` (teamAdmin, teamName, access, url): an address with no account yet. */
export function teamInviteMail(options: {
  to: string;
  teamAdmin: string;
  teamName: string;
  access: string;
  url: string;
}) {
  return actionMail(
    options.to,
    `${options.teamAdmin} invited you to the team “${options.teamName}”`,
    `${options.teamAdmin} invited you to join the team “${options.teamName}” on Redline as ${accessWord(options.access)}.`,
    "Sign up and join the team",
    options.url,
  );
}

/** SPEC §7 template `team-access` (teamName, access, url): an existing user added to a team. */
export function teamAccessMail(options: { to: string; teamName: string; access: string; url: string }) {
  return actionMail(
    options.to,
    `You have been added to the team “${options.teamName}”`,
    `You now have access to the team “${options.teamName}” on Redline as ${accessWord(options.access)}.`,
    "Open the team",
    options.url,
  );
}

const accessWord = (access: string) => (/^[aeiou]/.test(access) ? `an ${access}` : `a ${access}`);

export function approverMail(options: { to: string; ownerName: string; projectTitle: string; url: string }) {
  return actionMail(
    options.to,
    `You are an approver of “${options.projectTitle}”`,
    `${options.ownerName} made you an approver of “${options.projectTitle}”: you can mark its pages as approved.`,
    "Open the project",
    options.url,
  );
}

/** One notification of a batch: "Ada Lovelace" "left 3 comments on page" "Homepage", and where it opens. */
export interface NotificationMailItem {
  actor: string;
  /** The SPEC §9 wording (`notificationMessage`), counting grouped repeats. */
  message: string;
  about: string;
  url: string;
}

const sentence = (item: NotificationMailItem) => `${item.actor} ${item.message} “${item.about}”`;

/**
 * Notification mail (SPEC §9 templates for added page, comment, resolved comment and suggested change):
 * one message for a batch of one person's notifications of one kind in one project, newest first, each
 * with its deep link. One kind per message, so its one-click unsubscribe turns exactly that kind off.
 */
export function notificationMail(options: {
  to: string;
  items: NotificationMailItem[];
  projectTitle: string;
  settingsUrl: string;
  /**
   * One-click unsubscribe from this kind of mail (RFC 8058): the page a person opens, the URL a mail
   * client POSTs to, and the preference's name.
   */
  unsubscribe: { pageUrl: string; oneClickUrl: string; label: string };
}): Promise<Mail> {
  const { items, unsubscribe } = options;
  const [first] = items;
  if (!first) throw new Error("A notification mail needs at least one notification");
  const subject =
    items.length === 1
      ? sentence(first)
      : `${items.length} new notifications in “${options.projectTitle}”: ${unsubscribe.label.toLowerCase()}`;
  const kind = unsubscribe.label.toLowerCase();
  const footer = h(
    Fragment,
    null,
    Muted(
      "You get this e-mail because of your notification settings: ",
      h(Link, { href: options.settingsUrl, style: styles.link }, options.settingsUrl),
    ),
    Muted(`Stop e-mails about ${kind}: `, Url(unsubscribe.pageUrl)),
  );
  const body =
    items.length === 1
      ? [
          Paragraph(`${sentence(first)} in `, h("strong", null, options.projectTitle), "."),
          Action("Open it", first.url),
        ]
      : [
          Paragraph("In ", h("strong", null, options.projectTitle), ":"),
          ...items.map((item) =>
            h(
              Text,
              { key: item.url, style: styles.text },
              `${sentence(item)}: `,
              h(Link, { href: item.url, style: styles.link }, item.url),
            ),
          ),
        ];
  return toMail(options.to, subject, h(Layout, { preview: subject, footer }, ...body), {
    "List-Unsubscribe": `<${unsubscribe.oneClickUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  });
}

/**
 * To the guest who reported a bug through a site's widget, once the ticket is resolved. They have no
 * account, so the mail names the report and the page it was about and links nowhere in the app.
 */
export function ticketResolvedMail(options: {
  to: string;
  reporterName: string;
  ticketTitle: string;
  pageUrl: string | null;
}): Promise<Mail> {
  // Only a web address becomes a link (the widget sent it; anything else stays text).
  const where = !options.pageUrl
    ? []
    : /^https?:\/\//i.test(options.pageUrl)
      ? [" on ", Url(options.pageUrl)]
      : [` on ${options.pageUrl}`];
  const subject = `Your report “${options.ticketTitle}” was resolved`;
  return toMail(
    options.to,
    subject,
    h(
      Layout,
      { preview: subject },
      Paragraph(`Hi ${options.reporterName},`),
      Paragraph(
        "The problem you reported",
        ...where,
        ` — “${options.ticketTitle}” — has been resolved. Thank you for telling us.`,
      ),
    ),
  );
}

/** A message for the installation's support address (Contact Us, a plan request); replies go to the sender. */
export function supportMail(options: {
  to: string;
  kind: "contact" | "pro-request";
  sender: { name: string; email: string };
  subject: string;
  message: string;
  details?: Record<string, unknown>;
}): Promise<Mail> {
  const label = options.kind === "contact" ? "Contact Us" : "Plan request";
  const details = Object.entries(options.details ?? {}).map(([key, value]) => `${key}: ${String(value)}`);
  const message = (options.message || "(no message)").split("\n");
  return toMail(
    options.to,
    `[Redline] ${label}: ${options.subject}`,
    h(
      Layout,
      { preview: `${label} from ${options.sender.name}` },
      Paragraph(`${label} from ${options.sender.name} <${options.sender.email}>`),
      details.length > 0 && Muted(lines(details)),
      Paragraph(lines(message)),
    ),
    { "Reply-To": `${options.sender.name.replace(/[<>"\r\n]/g, "")} <${options.sender.email}>` },
  );
}
