/** The texts of the account mails. Plain text first; the HTML is the same words with a button. */
import type { Mail } from "./mailer.ts";

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function actionMail(to: string, subject: string, intro: string, action: string, url: string): Mail {
  const [introHtml, actionHtml, urlHtml] = [intro, action, url].map(escapeHtml);
  return {
    to,
    subject,
    text: `${intro}\n\n${action}: ${url}\n\nIf you did not ask for this, you can ignore this e-mail.\n\n— Redline`,
    html: `<p>${introHtml}</p><p><a href="${urlHtml}" style="background:#e5383b;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${actionHtml}</a></p><p style="color:#666">Or open this link: <a href="${urlHtml}">${urlHtml}</a></p><p style="color:#666">If you did not ask for this, you can ignore this e-mail.</p>`,
  };
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

/** A notification by e-mail: "Ada Lovelace commented on page “Homepage”" with a link to it. */
export function notificationMail(options: {
  to: string;
  actor: string;
  message: string;
  about: string;
  projectTitle: string;
  url: string;
  settingsUrl: string;
  /**
   * One-click unsubscribe from this kind of mail (RFC 8058): the page a person opens, the URL a mail
   * client POSTs to, and the preference's name.
   */
  unsubscribe: { pageUrl: string; oneClickUrl: string; label: string };
}): Mail {
  const subject = `${options.actor} ${options.message} “${options.about}”`;
  const { unsubscribe } = options;
  const footer = `You get this e-mail because of your notification settings: ${options.settingsUrl}\nStop e-mails about ${unsubscribe.label.toLowerCase()}: ${unsubscribe.pageUrl}`;
  const [subjectHtml, projectHtml, urlHtml, settingsHtml, unsubscribeHtml, labelHtml] = [
    subject,
    options.projectTitle,
    options.url,
    options.settingsUrl,
    unsubscribe.pageUrl,
    unsubscribe.label.toLowerCase(),
  ].map(escapeHtml);
  return {
    to: options.to,
    subject,
    text: `${subject} in ${options.projectTitle}.\n\nOpen it: ${options.url}\n\n${footer}\n\n— Redline`,
    html: `<p>${subjectHtml} in <strong>${projectHtml}</strong>.</p><p><a href="${urlHtml}" style="background:#e5383b;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Open it</a></p><p style="color:#666">You get this e-mail because of your <a href="${settingsHtml}">notification settings</a>. <a href="${unsubscribeHtml}">Stop e-mails about ${labelHtml}</a>.</p>`,
    headers: {
      "List-Unsubscribe": `<${unsubscribe.oneClickUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
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
}): Mail {
  const subject = `Your report “${options.ticketTitle}” was resolved`;
  const where = options.pageUrl ? ` on ${options.pageUrl}` : "";
  const text = `Hi ${options.reporterName},\n\nThe problem you reported${where} — “${options.ticketTitle}” — has been resolved. Thank you for telling us.\n\n— Redline`;
  const [nameHtml, titleHtml, urlHtml] = [
    options.reporterName,
    options.ticketTitle,
    options.pageUrl ?? "",
  ].map(escapeHtml);
  // Only a web address becomes a link (the widget sent it; anything else stays text).
  const whereHtml = !options.pageUrl
    ? ""
    : /^https?:\/\//i.test(options.pageUrl)
      ? ` on <a href="${urlHtml}">${urlHtml}</a>`
      : ` on ${urlHtml}`;
  return {
    to: options.to,
    subject,
    text,
    html: `<p>Hi ${nameHtml},</p><p>The problem you reported${whereHtml} — “${titleHtml}” — has been resolved. Thank you for telling us.</p>`,
  };
}

/** A message for the installation's support address (Contact Us, a plan request); replies go to the sender. */
export function supportMail(options: {
  to: string;
  kind: "contact" | "pro-request";
  sender: { name: string; email: string };
  subject: string;
  message: string;
  details?: Record<string, unknown>;
}): Mail {
  const label = options.kind === "contact" ? "Contact Us" : "Plan request";
  const details = Object.entries(options.details ?? {}).map(([key, value]) => `${key}: ${String(value)}`);
  const lines = [
    `${label} from ${options.sender.name} <${options.sender.email}>`,
    ...details,
    "",
    options.message || "(no message)",
  ];
  return {
    to: options.to,
    subject: `[Redline] ${label}: ${options.subject}`,
    text: lines.join("\n"),
    html: lines.map((line) => (line === "" ? "<br>" : `<p>${escapeHtml(line)}</p>`)).join(""),
    headers: { "Reply-To": `${options.sender.name.replace(/[<>"\r\n]/g, "")} <${options.sender.email}>` },
  };
}
