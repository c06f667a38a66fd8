/**
 * Mail (issue #16), one run of the app as a server process sending over SMTP to a local server:
 * sign-up while the mail server is slow (answers at once, then after 5 s; mail leaves through the durable
 * outbox, so the two should be equal within noise), and a burst of 20 comments by one person → how many
 * notification e-mails its recipient gets (batched: goal exactly 1). Writes "## Mail" in
 * docs/PERFORMANCE.md.
 */
import { once } from "node:events";
import os from "node:os";
import sharp from "sharp";
import { signUpVerified } from "../../apps/server/src/testing/http-client.ts";
import { type SmtpInbox, startSmtpInbox } from "../../apps/server/src/testing/smtp-inbox.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { scratchDatabase, startServer } from "../lib/server.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const DELAY_MS = 5000;
const BURST = 20;
/** The server's batching window for this run (MAIL_BATCH_WINDOW_MS; production default 2 minutes). */
const WINDOW_MS = 10_000;

async function signUpTimes(url: string, label: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const answer = await fetch(`${url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url },
      body: JSON.stringify({
        email: `${label}-${i}-${Date.now()}@example.com`,
        password: "bench password",
        name: "B",
      }),
    });
    await answer.text();
    if (!answer.ok) throw new Error(`sign-up answered ${answer.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * One person comments BURST times on a page as fast as the API answers; counts the notification mails
 * (those with List-Unsubscribe) the project's owner receives until a second window has passed.
 */
async function burstMails(url: string, inbox: SmtpInbox) {
  const stamp = Date.now().toString(36);
  const ownerEmail = `burst-owner-${stamp}@example.com`;
  const memberEmail = `burst-member-${stamp}@example.com`;
  const owner = await signUpVerified(url, inbox, ownerEmail, undefined, "Olive Owner");
  const member = await signUpVerified(url, inbox, memberEmail, undefined, "Mo Member");
  const projectId = (await owner.post("/api/projects", { title: "Launch" })).body.data.id as string;
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#e5383b" } })
    .png()
    .toBuffer();
  const page = await owner.upload(`/api/projects/${projectId}/uploads`, {
    name: "Home.png",
    type: "image/png",
    bytes,
  });
  await owner.post(`/api/projects/${projectId}/members`, { email: memberEmail, access: "comment" });
  const isNotification = (m: { to: string[]; headers: Record<string, string> }) =>
    m.to.includes(ownerEmail) && Boolean(m.headers["list-unsubscribe"]);
  const started = performance.now();
  for (let i = 1; i <= BURST; i++) {
    const made = await member.post(`/api/versions/${page.body.data.versionId}/comments`, {
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
      comment: `Point ${i}`,
    });
    if (made.status !== 201) throw new Error(`comment answered ${made.status}`);
  }
  const burstMs = performance.now() - started;
  const first = await inbox.waitFor(isNotification, WINDOW_MS + 60_000);
  const firstAfterMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 5000));
  return { mails: inbox.mails.filter(isNotification).length, burstMs, firstAfterMs, subject: first.subject };
}

const inbox = await startSmtpInbox();
const database = await scratchDatabase();
const server = await startServer({
  DATABASE_URL: database.url,
  SMTP_URL: inbox.url,
  MAIL_BATCH_WINDOW_MS: String(WINDOW_MS),
});
try {
  await signUpTimes(server.url, "warm"); // warm-up: connections, prepared statements
  inbox.behave({});
  const instant = await signUpTimes(server.url, "instant");
  inbox.behave({ delayMs: DELAY_MS });
  const slow = await signUpTimes(server.url, "slow");
  inbox.behave({});
  const burst = await burstMails(server.url, inbox);
  const row = (name: string, times: number[]) =>
    `| ${name} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} |`;
  const ratio = percentile(slow, 50) / percentile(instant, 50);
  const body = `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:mail\` on this project's 2-core machine (load average ${os.loadavg()[0]!.toFixed(1)} when it finished): the app as a server process on PostgreSQL sending over SMTP to a local server, ${RUNS} sign-ups one after another per row, after ${RUNS} warm-up sign-ups. Goal (issue #16): sign-up as fast with a mail server that answers after ${DELAY_MS / 1000} s as with an instant one.

| Mail server | sign-up p50 (ms) | p95 (ms) |
|---|---|---|
${row("answers at once", instant)}
${row(`answers after ${DELAY_MS / 1000} s`, slow)}

Slow ÷ instant, p50: ${ratio.toFixed(2)}× — ${ratio < 1.5 ? "met (equal within noise)" : "not met"}. Every mail is stored in \`outgoing_mails\` in the request and delivered out of it (\`lib/mail/durable-mailer.ts\`).

Batching, same run (MAIL_BATCH_WINDOW_MS = ${WINDOW_MS / 1000} s; the default is 120 s): one person posts ${BURST} comments on one page one after another (${(burst.burstMs / 1000).toFixed(1)} s), then the recipient's mail is awaited and a further window watched. Goal (issue #16): a burst of ${BURST} comments → exactly 1 e-mail.

| Burst | notification e-mails to the recipient | first one after (s, from the first comment) | subject |
|---|---|---|---|
| ${BURST} comments | ${burst.mails} | ${(burst.firstAfterMs / 1000).toFixed(1)} | ${burst.subject} |

${burst.mails === 1 ? "Met" : "Not met"}: the first event of a (recipient, project, preference) starts one queued job a window later (pg-boss \`short\` policy, one waiting job per key); the job mails every unclaimed notification of the key as one message (\`modules/notifications/notification-mail.ts\`).`;
  console.log(body);
  await writeSection("Mail", body);
} finally {
  // The server stops (its deliveries with it) before its database goes.
  const exited = once(server.process, "exit");
  server.process.kill();
  await exited;
  await database.drop();
  await inbox.close();
}
