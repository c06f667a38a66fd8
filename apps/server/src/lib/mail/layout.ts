/**
 * The one look of every mail (react-email): a white card, the content, a muted footer, signed
 * “— Redline”; the small building blocks templates compose; and `toMail`, which renders both parts — the
 * HTML, and the plain text derived from it — so the two never say different things. React escapes every
 * value, so titles and names typed by people are text. No JSX (the server is plain TypeScript): `h` is
 * `createElement`.
 */
// One package per component, not the @react-email/components bundle: that one also loads the code
// block's syntax highlighter and Tailwind, about a second of every process start.
import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { render, toPlainText } from "@react-email/render";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { Fragment, createElement as h, type ReactNode } from "react";
// react-email's render imports this lazily: loaded with the app instead, not by the first mail of a request.
import "react-dom/server";
import type { Mail, MailAttachment } from "./mailer.ts";

export { h };

const ACCENT = "#e5383b";
const FONT = "Inter, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
export const styles = {
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
export function Layout(props: { preview: string; children?: ReactNode; footer?: ReactNode }) {
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

export const Paragraph = (...children: ReactNode[]) => h(Text, { style: styles.text }, ...children);
export const Muted = (...children: ReactNode[]) => h(Text, { style: styles.muted }, ...children);
export const Action = (label: string, url: string) =>
  h(Section, { style: { margin: "8px 0 24px" } }, h(Button, { href: url, style: styles.button }, label));
/** Lines of text kept as lines (a <br> between them; the text part breaks there too). */
export const lines = (texts: string[]) =>
  texts.map((line, index) => h(Fragment, { key: index }, index > 0 ? h("br") : null, line));
/** A link shown as its address, so the text part reads "label: https://…". */
export const Url = (url: string) => h(Link, { href: url, style: styles.link }, url);

export async function toMail(
  to: string,
  subject: string,
  element: ReactNode,
  headers?: Record<string, string>,
  attachments?: MailAttachment[],
): Promise<Mail> {
  const html = await render(element);
  // From the rendered HTML: the same words (render's own plain-text pass renders the tree again, slower).
  const text = toPlainText(html);
  return { to, subject, text, html, ...(headers && { headers }), ...(attachments && { attachments }) };
}
