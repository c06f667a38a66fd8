/**
 * Every mail the instance writes about accounts and notifications, as react-email templates (issue #16)
 * in the one layout of layout.ts; the support address's mail is in support-templates.ts.
 *
 * The first web link of a mail's text is its action (verify, open the comment …); tests and people alike
 * follow it. Only notification mail of a kind with an e-mail preference carries List-Unsubscribe headers
 * (RFC 8058); account mail never does, nor mail of a kind no preference covers (ADR 0017).
 */

import { Link } from "@react-email/link";
import { Text } from "@react-email/text";
import { Fragment } from "react";
import { Action, h, Layout, Muted, Paragraph, styles, toMail, Url } from "./layout.ts";
import type { Mail } from "./mailer.ts";

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

/** SPEC §7 `welcome-user`: a sign-up through Google, whose address needed no verification mail. */
export const welcomeMail = (to: string, name: string, url: string) =>
  toMail(
    to,
    "Welcome to Redline",
    h(
      Layout,
      { preview: "Your Redline account is ready." },
      Paragraph(`Welcome to Redline${name ? `, ${name}` : ""}! Your account is ready.`),
      Paragraph(
        "Add a web page, a screenshot, an image or a PDF and pin your comments to exactly what you mean.",
      ),
      Action("Open Redline", url),
      Muted("Or open this link: ", Url(url)),
    ),
  );

/** To the new address of an e-mail change: its link makes it the account's address. */
export const emailChangeMail = (to: string, url: string) =>
  actionMail(
    to,
    "Confirm your new e-mail for Redline",
    "Someone asked to make this the e-mail address of their Redline account. Confirm it within 24 hours.",
    "Confirm e-mail",
    url,
  );

/** To the old address of an e-mail change: told, so a change they did not ask for does not go unseen. */
export const emailChangeNoticeMail = (to: string, newEmail: string, url: string) =>
  toMail(
    to,
    "Your Redline e-mail address is being changed",
    h(
      Layout,
      { preview: "A change of your e-mail address was requested." },
      Paragraph(
        `A change of your Redline account's e-mail address to ${newEmail} was requested. It takes effect once the link sent to that address is followed.`,
      ),
      Paragraph("If this was not you, cancel the change in Account Settings and change your password."),
      Action("Open Account Settings", url),
    ),
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

/**
 * SPEC §7 template `team-invite` (teamAdmin, teamName, access, url): someone was added to a team — an
 * address with no account yet (the link signs up), or an existing user (the link opens the team).
 */
export function teamInviteMail(options: {
  to: string;
  teamAdmin: string;
  teamName: string;
  access: string;
  url: string;
  isNewUser: boolean;
}) {
  return actionMail(
    options.to,
    `${options.teamAdmin} invited you to the team “${options.teamName}”`,
    `${options.teamAdmin} invited you to join the team “${options.teamName}” on Redline as ${accessWord(options.access)}.`,
    options.isNewUser ? "Sign up and join the team" : "Open the team",
    options.url,
  );
}

/** SPEC §7 template `team-access` (teamName, access, url): a team user's access was changed. */
export function teamAccessMail(options: { to: string; teamName: string; access: string; url: string }) {
  return actionMail(
    options.to,
    `Your access to the team “${options.teamName}” changed`,
    `You are now ${accessWord(options.access)} in the team “${options.teamName}” on Redline.`,
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
          ...items.map((item) => LinkLine(`${sentence(item)}: `, item.url)),
        ];
  return toMail(options.to, subject, h(Layout, { preview: subject, footer }, ...body), {
    "List-Unsubscribe": `<${unsubscribe.oneClickUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  });
}

/** One page of a pages-added mail: who added it, its title, and the link that opens it. */
export interface AddedPageItem {
  actor: string;
  pageTitle: string;
  url: string;
}

/**
 * SPEC §9's template for an added page: one message for a burst of pages added to one project, newest
 * first, each with the link that opens it — "Ada Lovelace added page “Home”", or for a burst "Ada Lovelace
 * added 3 pages to project “Launch”" (with several people adding, "3 pages were added to project …").
 * No e-mail preference covers it (SPEC §3's flags are fixed), so it is always sent and carries no
 * unsubscribe header (ADR 0017); the footer says why it came.
 */
export function pagesAddedMail(options: {
  to: string;
  items: AddedPageItem[];
  projectTitle: string;
  /** Where the project opens (a burst's action). */
  projectUrl: string;
  settingsUrl: string;
}): Promise<Mail> {
  const { items, projectTitle } = options;
  const [first] = items;
  if (!first) throw new Error("A pages-added mail needs at least one page");
  const isOnePerson = new Set(items.map((item) => item.actor)).size === 1;
  const burst = isOnePerson
    ? `${first.actor} added ${items.length} pages to project`
    : `${items.length} pages were added to project`;
  const subject =
    items.length === 1 ? `${first.actor} added page “${first.pageTitle}”` : `${burst} “${projectTitle}”`;
  const footer = partOfProject(projectTitle, options.settingsUrl);
  const body =
    items.length === 1
      ? [
          Paragraph(
            `${first.actor} added page “${first.pageTitle}” to `,
            h("strong", null, projectTitle),
            ".",
          ),
          ...ActionWithLink("Open the page", first.url),
        ]
      : [
          Paragraph(`${burst} `, h("strong", null, projectTitle), ":"),
          ...items.map((item) =>
            LinkLine(`${isOnePerson ? "" : `${item.actor}: `}“${item.pageTitle}”: `, item.url),
          ),
          Action("Open the project", options.projectUrl),
        ];
  return toMail(options.to, subject, h(Layout, { preview: subject, footer }, ...body));
}

/** One ticket of a new-tickets mail: who created it, its title, and the link that opens it. */
export interface AddedTicketItem {
  actor: string;
  ticketTitle: string;
  url: string;
}

/**
 * New tickets on a project's board, in the panel's wording ("created a ticket on"): one message for a
 * burst of tickets created on one project, newest first, each with the link that opens it — "Ada Lovelace
 * created a ticket on “Shop bugs”", or for a burst "3 new tickets on “Shop bugs”". Like an added page, no
 * e-mail preference covers it, so it is always sent and carries no unsubscribe header (ADR 0017).
 */
export function ticketsAddedMail(options: {
  to: string;
  items: AddedTicketItem[];
  projectTitle: string;
  /** Where the board opens (a burst's action). */
  projectUrl: string;
  settingsUrl: string;
}): Promise<Mail> {
  const { items, projectTitle } = options;
  const [first] = items;
  if (!first) throw new Error("A new-tickets mail needs at least one ticket");
  const subject =
    items.length === 1
      ? `${first.actor} created a ticket on “${projectTitle}”`
      : `${items.length} new tickets on “${projectTitle}”`;
  const body =
    items.length === 1
      ? [
          Paragraph(
            `${first.actor} created a ticket on `,
            h("strong", null, projectTitle),
            `: “${first.ticketTitle}”.`,
          ),
          ...ActionWithLink("Open the ticket", first.url),
        ]
      : [
          Paragraph(`${items.length} new tickets on `, h("strong", null, projectTitle), ":"),
          ...items.map((item) => LinkLine(`${item.actor}: “${item.ticketTitle}”: `, item.url)),
          Action("Open the board", options.projectUrl),
        ];
  return toMail(
    options.to,
    subject,
    h(Layout, { preview: subject, footer: partOfProject(projectTitle, options.settingsUrl) }, ...body),
  );
}

/** One line of a burst: what happened, then the link that opens it. */
const LinkLine = (label: string, url: string) =>
  h(Text, { key: url, style: styles.text }, label, h(Link, { href: url, style: styles.link }, url));

/** A single item's button, and its link spelled out for clients that do not show buttons. */
const ActionWithLink = (label: string, url: string) => [
  Action(label, url),
  Muted("Or open this link: ", Url(url)),
];

/** Why a mail no preference covers came: taking part in the project (ADR 0017). */
const partOfProject = (projectTitle: string, settingsUrl: string) =>
  Muted(
    `You get this e-mail because you take part in “${projectTitle}”. Your e-mail settings: `,
    h(Link, { href: settingsUrl, style: styles.link }, settingsUrl),
  );

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
