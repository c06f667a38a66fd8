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

const { app, content, ctx } = await buildApp(config).catch((error: unknown) => {
  if (!(error instanceof DataDirInUseError)) throw error;
  console.error(error.message);
  process.exit(1);
});
await content.listen({ host: config.host, port: config.contentPort });
await app.listen({ host: config.host, port: config.port });
app.log.info(
  `Redline at ${config.appUrl} (content origin ${config.contentOrigin}, database: ${ctx.database.kind}, mail: ${ctx.mailer.kind === "smtp" ? "SMTP" : `outbox at ${config.appUrl}/dev/mailbox`})`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0));
  });
}
