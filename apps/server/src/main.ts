import { buildApp } from "./app.ts";
import { loadConfig } from "./env.ts";
import { DataDirInUseError } from "./lib/data-dir-lock.ts";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const { app, content, ctx, readiness } = await buildApp(config).catch((error: unknown) => {
  if (!(error instanceof DataDirInUseError)) throw error;
  console.error(error.message);
  process.exit(1);
});
if (config.role === "worker") {
  // A worker works the queue's jobs (captures, mail, collection) and listens on no port.
  await app.ready();
  app.log.info(`Redline worker: jobs only, no HTTP (database: ${ctx.database.kind})`);
} else {
  await content.listen({ host: config.host, port: config.contentPort });
  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    `Redline at ${config.appUrl} (content origin ${config.contentOrigin}, database: ${ctx.database.kind}, mail: ${ctx.mailer.kind === "smtp" ? "SMTP" : `outbox at ${config.appUrl}/dev/mailbox`})`,
  );
}

// Stopping (SIGTERM from systemd, SIGINT from a terminal): readiness answers 503 at once and every answer
// closes its connection (a load balancer stops sending new requests here); after SHUTDOWN_DELAY_SECONDS
// the server stops accepting, finishes its in-flight requests and jobs (a capture in progress included),
// closes its WebSockets with "restarting" (clients reconnect at once, to another process), and exits 0.
// A second signal exits at once.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    readiness.drain();
    app.log.info(`${signal}: draining for ${config.shutdownDelaySeconds} s, then closing`);
    for (const again of ["SIGINT", "SIGTERM"] as const) process.once(again, () => process.exit(1));
    setTimeout(() => {
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, "closing failed");
          process.exit(1);
        },
      );
    }, config.shutdownDelaySeconds * 1000);
  });
}
