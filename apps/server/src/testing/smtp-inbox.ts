/** A real SMTP server for tests: mails the app sends arrive here over the wire and are parsed. */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The first http(s) link in the text part. */
  link: string | null;
  /** Header fields as sent, by lower-case name (the first of each). */
  headers: Record<string, string>;
  /** Attached files as received. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface SmtpInbox {
  url: string;
  mails: ReceivedMail[];
  /** How the server answers from now on: after a delay, or refusing every message (451, try later). */
  behave(behaviour: { delayMs?: number; refuse?: boolean }): void;
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let behaviour = { delayMs: 0, refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      if (behaviour.refuse) {
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error("Try again later"), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const to = [parsed.to ?? []].flat().flatMap((address) => address.value.map((v) => v.address ?? ""));
          const text = parsed.text ?? "";
          mails.push({
            to,
            subject: parsed.subject ?? "",
            text,
            html: typeof parsed.html === "string" ? parsed.html : "",
            link: text.match(/https?:\/\/\S+/)?.[0] ?? null,
            attachments: parsed.attachments.map((file) => ({
              filename: file.filename ?? "",
              contentType: file.contentType,
              content: file.content,
            })),
            headers: Object.fromEntries(
              [...parsed.headerLines]
                .reverse()
                .map(({ key, line }) => [key, line.slice(line.indexOf(":") + 1).trim()]),
            ),
          });
          const accept = () => {
            for (const wake of waiters) wake();
            callback();
          };
          if (behaviour.delayMs > 0) setTimeout(accept, behaviour.delayMs);
          else accept();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    behave(next) {
      behaviour = { delayMs: next.delayMs ?? 0, refuse: next.refuse ?? false };
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = mails.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching mail within ${timeoutMs} ms (got ${mails.length})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
