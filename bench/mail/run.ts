/**
 * Sign-up while the mail server is slow (issue #16): the app as a server process sending over SMTP to a
 * local server that answers at once, then after 5 s; sign-up response times in the same run. Mail leaves
 * through the durable outbox, so the two should be equal within noise. Writes "## Mail" in
 * docs/PERFORMANCE.md.
 */
import { once } from "node:events";
import os from "node:os";
import { startSmtpInbox } from "../../apps/server/src/testing/smtp-inbox.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { scratchDatabase, startServer } from "../lib/server.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const DELAY_MS = 5000;

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

const inbox = await startSmtpInbox();
const database = await scratchDatabase();
const server = await startServer({ DATABASE_URL: database.url, SMTP_URL: inbox.url });
try {
  await signUpTimes(server.url, "warm"); // warm-up: connections, prepared statements
  inbox.behave({});
  const instant = await signUpTimes(server.url, "instant");
  inbox.behave({ delayMs: DELAY_MS });
  const slow = await signUpTimes(server.url, "slow");
  inbox.behave({});
  const row = (name: string, times: number[]) =>
    `| ${name} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} |`;
  const ratio = percentile(slow, 50) / percentile(instant, 50);
  const body = `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:mail\` on this project's 2-core machine (load average ${os.loadavg()[0]!.toFixed(1)} when it finished): the app as a server process on PostgreSQL sending over SMTP to a local server, ${RUNS} sign-ups one after another per row, after ${RUNS} warm-up sign-ups. Goal (issue #16): sign-up as fast with a mail server that answers after ${DELAY_MS / 1000} s as with an instant one.

| Mail server | sign-up p50 (ms) | p95 (ms) |
|---|---|---|
${row("answers at once", instant)}
${row(`answers after ${DELAY_MS / 1000} s`, slow)}

Slow ÷ instant, p50: ${ratio.toFixed(2)}× — ${ratio < 1.5 ? "met (equal within noise)" : "not met"}. Every mail is stored in \`outgoing_mails\` in the request and delivered out of it (\`lib/mail/durable-mailer.ts\`).`;
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
