/** The texts of the account mails. Plain text first; the HTML is the same words with a button. */
import type { Mail } from "./mailer.ts";

function actionMail(to: string, subject: string, intro: string, action: string, url: string): Mail {
  const escaped = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return {
    to,
    subject,
    text: `${intro}\n\n${action}: ${url}\n\nIf you did not ask for this, you can ignore this e-mail.\n\n— Redline`,
    html: `<p>${intro}</p><p><a href="${escaped}" style="background:#e5383b;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${action}</a></p><p style="color:#666">Or open this link: <a href="${escaped}">${escaped}</a></p><p style="color:#666">If you did not ask for this, you can ignore this e-mail.</p>`,
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
