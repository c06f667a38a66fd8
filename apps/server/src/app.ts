/**
 * Builds the one Fastify process: API under /api, stored files under /files, and the built SPA with a
 * history fallback for every other GET. Which providers run is decided by the config.
 */

import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import path from "node:path";
import fastifyMultipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import fastifyWebsocket from "@fastify/websocket";
import { type ApiErrorBody, REALTIME_RESTART_CLOSE, TRACKER_TYPES } from "@redline/shared";
import Fastify, { type FastifyInstance } from "fastify";
import { ZodError } from "zod";
import type { AppContext } from "./context.ts";
import { openDatabase } from "./db/index.ts";
import { type AppConfig, EMBEDDED_POSTHOG_PATH } from "./env.ts";
import { createPaypalClient } from "./integrations/paypal/index.ts";
import { createStripePayments } from "./integrations/stripe/index.ts";
import {
  ForbiddenError,
  HttpError,
  isBackendUnavailable,
  PlanLimitError,
  TooManyRequestsError,
} from "./lib/errors.ts";
import { endConnectionsWhenClosing } from "./lib/graceful-close.ts";
import { installInputBoundary } from "./lib/input-boundary.ts";
import { startLedger } from "./lib/ledger.ts";
import { createDurableMailer } from "./lib/mail/durable-mailer.ts";
import { createMailer } from "./lib/mail/mailer.ts";
import { installMetrics } from "./lib/metrics.ts";
import { acceptedBy, bearerOf, isExtensionOrigin, provesItself, SAFE_METHODS } from "./lib/principal.ts";
import { startQueue } from "./lib/queue.ts";
import { startRealtimeHub } from "./lib/realtime.ts";
import "./modules/events.ts";
import { EMBEDDED_SLACK_PATH } from "./integrations/slack/index.ts";
import { installRequestScope } from "./lib/request-scope.ts";
import { installResponseValidation } from "./lib/response-validation.ts";
import { compressLargeJson } from "./lib/revalidate.ts";
import type { RegisteredRoute } from "./lib/routes.ts";
import { route } from "./lib/routes.ts";
import { selfUrl } from "./lib/self-url.ts";
import { createS3Storage } from "./lib/storage/s3-storage.ts";
import { createLocalStorage } from "./lib/storage/storage.ts";
import { installValidationMessages } from "./lib/validation-message.ts";
import { mcpRoutes } from "./mcp/mcp.routes.ts";
import { adminRoutes } from "./modules/admin/admin.routes.ts";
import { startAnalyticsConsumer } from "./modules/analytics/analytics.consumer.ts";
import { startAnalyticsForwarding } from "./modules/analytics/analytics.forward.ts";
import { analyticsRoutes } from "./modules/analytics/analytics.routes.ts";
import { apiTokenRoutes } from "./modules/auth/api-tokens.routes.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { createAuth } from "./modules/auth/auth.ts";
import { emailChangeRoutes } from "./modules/auth/email-change.routes.ts";
import { EMBEDDED_GOOGLE_PATH } from "./modules/auth/google.ts";
import { handoffRoutes } from "./modules/auth/handoff.routes.ts";
import { installPrincipal } from "./modules/auth/principal-hook.ts";
import { forgetAfterWrites, startSessionCache } from "./modules/auth/session-cache.ts";
import { billingRoutes } from "./modules/billing/billing.routes.ts";
import { billingWebhookRoutes } from "./modules/billing/billing.webhook.ts";
import { paypalRoutes } from "./modules/billing/paypal.routes.ts";
import { pricesRoutes } from "./modules/billing/prices.routes.ts";
import { startCaptureWorker } from "./modules/captures/capture.worker.ts";
import { attachmentsRoutes } from "./modules/comments/attachments.routes.ts";
import { commentsRoutes } from "./modules/comments/comments.routes.ts";
import { videoRoutes } from "./modules/comments/video.routes.ts";
import { commentVideos } from "./modules/comments/video.ts";
import { buildContentServer } from "./modules/content/content.server.ts";
import { conversationsRoutes } from "./modules/conversations/conversations.routes.ts";
import { installExtensionCors } from "./modules/extension/extension.cors.ts";
import { extensionRoutes } from "./modules/extension/extension.routes.ts";
import { createFilesCollectQueue, startFileCollector } from "./modules/files/collector.ts";
import { filesRoutes } from "./modules/files/files.routes.ts";
import { healthRoutes } from "./modules/health/health.routes.ts";
import { createReadiness, type Readiness } from "./modules/health/readiness.ts";
import { inspectRoutes } from "./modules/inspect/inspect.routes.ts";
import { integrationsRoutes } from "./modules/integrations/integrations.routes.ts";
import { startSlackConsumer } from "./modules/integrations/slack.consumer.ts";
import { startSlackMessages } from "./modules/integrations/slack.messages.ts";
import { slackRoutes } from "./modules/integrations/slack.routes.ts";
import { startMergeGateConsumer, startMergeGatePosts } from "./modules/integrations/trackers/github.gate.ts";
import { EMBEDDED_TRACKER_PATHS } from "./modules/integrations/trackers/index.ts";
import { startTrackerCards } from "./modules/integrations/trackers/trackers.cards.ts";
import { startTrackersConsumer } from "./modules/integrations/trackers/trackers.consumer.ts";
import { startWebhookRenewal } from "./modules/integrations/trackers/trackers.renewal.ts";
import { trackersRoutes } from "./modules/integrations/trackers/trackers.routes.ts";
import { startWebhookDeliveries } from "./modules/integrations/webhook-delivery.ts";
import { startWebhooksConsumer } from "./modules/integrations/webhooks.consumer.ts";
import { mailboxRoutes } from "./modules/mailbox/mailbox.routes.ts";
import { collaboratorsRoutes } from "./modules/members/collaborators.routes.ts";
import { claimInvitations } from "./modules/members/members.load.ts";
import { membersRoutes } from "./modules/members/members.routes.ts";
import {
  createNotificationMailQueue,
  startNotificationMailer,
} from "./modules/notifications/notification-mail.ts";
import { startNotificationsConsumer } from "./modules/notifications/notifications.consumer.ts";
import { notificationsRoutes } from "./modules/notifications/notifications.routes.ts";
import { pagesRoutes } from "./modules/pages/pages.routes.ts";
import { measureUnsizedUploads } from "./modules/plans/storage.ts";
import { projectsRoutes } from "./modules/projects/projects.routes.ts";
import { installApiRateLimits } from "./modules/rate-limits/api-rate-limit.ts";
import { realtimeRoutes } from "./modules/realtime/realtime.routes.ts";
import { referralRoutes } from "./modules/referrals/referrals.routes.ts";
import { reviewRequestsRoutes } from "./modules/review-requests/review-requests.routes.ts";
import { ensureDemoProject } from "./modules/sharing/demo.ts";
import { sharingRoutes } from "./modules/sharing/sharing.routes.ts";
import { slidesRoutes } from "./modules/slides/slides.routes.ts";
import { supportRoutes } from "./modules/support/support.routes.ts";
import { customHostsRoutes } from "./modules/teams/custom-hosts.routes.ts";
import { teamBrandingRoutes } from "./modules/teams/team-branding.routes.ts";
import { startDomainDns } from "./modules/teams/team-domain.check.ts";
import { teamDomainRoutes } from "./modules/teams/team-domain.routes.ts";
import { teamMembersRoutes } from "./modules/teams/team-members.routes.ts";
import { claimTeamInvitations } from "./modules/teams/teams.load.ts";
import { teamsRoutes } from "./modules/teams/teams.routes.ts";
import { ownBrowseOrigin, trustedOrigins } from "./modules/teams/trusted-origins.ts";
import { listsRoutes } from "./modules/tickets/lists.routes.ts";
import { ticketThreadRoutes } from "./modules/tickets/ticket-thread.routes.ts";
import { ticketVideos } from "./modules/tickets/ticket-video.ts";
import { ticketsRoutes } from "./modules/tickets/tickets.routes.ts";
import { grantsRoutes } from "./modules/users/grants.routes.ts";
import { unsubscribeRoutes } from "./modules/users/unsubscribe.routes.ts";
import { usersRoutes } from "./modules/users/users.routes.ts";
import { CAPTURE_QUEUE, createCaptureQueue } from "./modules/versions/capture-queue.ts";
import { versionsRoutes } from "./modules/versions/versions.routes.ts";
import { createVideoQueue, startVideoProcessing } from "./modules/videos/processing.ts";
import { createVideoUploads } from "./modules/videos/uploads.ts";
import { widgetRoutes } from "./modules/widget/widget.routes.ts";
import { openApiDocument, openApiDocumentSchema } from "./openapi.ts";
import { serveBackups } from "./ops/pglite-backup-socket.ts";

/** The API's version in its OpenAPI document. */
const API_VERSION = "0.1.0";

export interface BuiltApp {
  app: FastifyInstance;
  /** Every "METHOD /url" the app registers (for the authorization matrix). */
  routes: string[];
  /** The same routes with their declarations (lib/routes.ts): the registry OpenAPI and the matrix read. */
  registry: RegisteredRoute[];
  /** The content origin's server; `listen` it on config.contentPort. */
  content: FastifyInstance;
  ctx: AppContext;
  /** Readiness (/health/ready); main.ts drains it on SIGTERM before closing. */
  readiness: Readiness;
}

export async function buildApp(config: AppConfig): Promise<BuiltApp> {
  installValidationMessages();
  const database = await openDatabase(config);
  // `npm run backup` asks this process for its embedded database's dump (it holds the folder alone).
  const backups = await serveBackups(database, config.pgliteDir);
  // Every mail is stored, then delivered out of the request (retried by the queue while the server fails).
  const mailer = createDurableMailer(
    database.db,
    createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: database.db }),
    (error) => console.error("mail delivery", error),
  );
  const storage = config.s3 ? createS3Storage(config.s3) : createLocalStorage(config.filesDir);
  const isTrustedOrigin = trustedOrigins(
    database.db,
    config.appUrl,
    () => [config.browse.url ?? ownBrowseOrigin(config.appUrl, config.browse.hostPrefix)],
    config.plansEnabled,
  );
  const auth = createAuth(config, database.db, mailer, {
    isTrustedOrigin,
    // Invitations sent to a person's address (projects, teams) become theirs once it is proven.
    claimInvitations: async (db, user) => {
      await claimInvitations(db, user);
      await claimTeamInvitations(db, user);
    },
  });
  const jobs = await startQueue(database);
  const { queue } = jobs;
  await createCaptureQueue(queue);
  await createNotificationMailQueue(queue);
  await createFilesCollectQueue(queue);
  await mailer.start(queue);
  // Until the app's logger exists (below), the ledger's readers log to the console.
  let logError = (message: string, error: unknown) => console.error(message, error);
  const ledger = await startLedger(database, {
    retentionMs: config.ledgerRetentionHours * 3_600_000,
    log: (message, error) => logError(message, error),
  });
  const videoUploads = createVideoUploads(config);
  await createVideoQueue(queue);
  const ctx: AppContext = {
    config,
    database,
    auth,
    mailer,
    storage,
    queue,
    ledger,
    isTrustedOrigin,
    videoUploads,
  };
  const worker = config.captureWorker ? await startCaptureWorker(ctx) : null;
  const hub = startRealtimeHub(database.db, ledger, database.listen);
  const stopSessionCache = await startSessionCache(database);
  // Every process runs the ledger's consumers (one works each at a time) unless told to leave them to others.
  if (config.ledgerConsumers) {
    await startNotificationsConsumer(ctx);
    await startNotificationMailer(ctx);
    await startWebhooksConsumer(ctx);
    await startAnalyticsConsumer(ctx);
    await startTrackersConsumer(ctx);
    await startSlackConsumer(ctx);
    await startMergeGateConsumer(ctx);
  }
  const stopAnalyticsForwarding = await startAnalyticsForwarding(ctx);
  await startWebhookDeliveries(ctx);
  await startTrackerCards(ctx);
  await startMergeGatePosts(ctx);
  const webhookRenewal = await startWebhookRenewal(ctx);
  await startSlackMessages(ctx);
  const collector = await startFileCollector(ctx);
  const videoProcessing = await startVideoProcessing(ctx, { comment: commentVideos, ticket: ticketVideos });
  await ensureDemoProject(ctx);
  await measureUnsizedUploads(ctx);
  const content = buildContentServer(ctx);

  const app = Fastify({
    logger: config.logStream
      ? { level: config.logLevel, stream: config.logStream }
      : { level: config.logLevel },
    // Every log line of a request carries its id (`reqId`): the caller's X-Request-Id when it is a short,
    // safe token (a proxy's or a client's), else a new one; echoed in the response's X-Request-Id.
    requestIdHeader: false,
    genReqId: requestId,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  logError = (message, error) => app.log.error({ err: error }, message);
  // Traces (OTEL_EXPORTER_OTLP_ENDPOINT): the SDK is imported only when configured (lib/tracing.ts).
  const tracing = config.tracing ? (await import("./lib/tracing.ts")).startTracing(config.tracing) : null;
  await tracing?.instrument(app);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  // Draining (SIGTERM, main.ts): each answer closes its connection, so a proxy's kept-alive connections
  // end with the request in flight on them and it sends the next one to another process.
  const readiness = createReadiness(ctx);
  app.addHook("onSend", async (_request, reply) => {
    if (readiness.isDraining) reply.header("connection", "close");
  });
  const routes: string[] = [];
  const registered: RegisteredRoute[] = [];
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method === "HEAD") continue;
      routes.push(`${method} ${route.url}`);
      registered.push({ method, url: route.url, doc: route.config?.doc });
    }
  });
  app.addHook("onClose", async () => {
    // A slow step of shutting down is named in the log, so a slow stop says where its time went.
    // A step still waiting after 20 s is named and left behind, so a stuck stop (a reconnect under way,
    // a job that never ends) never keeps the process from exiting.
    const step = async (name: string, run: () => unknown) => {
      const started = performance.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), 20_000);
      });
      const outcome = await Promise.race([Promise.resolve(run()).then(() => "done" as const), late]);
      clearTimeout(timer);
      const ms = performance.now() - started;
      if (outcome === "late")
        app.log.error(`closing: "${name}" still running after 20 s; going on without it`);
      else if (ms > 2_000) app.log.warn(`closing: "${name}" took ${Math.round(ms)} ms`);
    };
    await step("file collector", () => collector.stop());
    await step("tracker webhooks' renewal", () => webhookRenewal.stop());
    await step("video processing", () => videoProcessing.stop());
    await step("capture worker", () => worker?.stop());
    await step("realtime hub", () => hub.stop());
    await step("ledger", () => ledger.stop());
    await step("session cache", () => stopSessionCache());
    await step("mailer", () => mailer.stop());
    await step("jobs", () => jobs.stop());
    await step("analytics forwarding", () => stopAnalyticsForwarding());
    await step("content server", () => content.close());
    await step("backup socket", async () => backups?.close());
    await step("database", () => database.close());
    await step("traces", () => tracing?.flush());
  });

  forgetAfterWrites(app, database.db);
  // What a request asked for that writes far from its handler honour (Do Not Track; lib/request-scope.ts).
  await installRequestScope(app);
  for (const server of [app, content]) endConnectionsWhenClosing(server);

  // Who is calling is resolved first, once per request, into request.principal: a bearer token, the
  // session cookie, a link guest… as the route accepts; the route's declared callers and a token's scope
  // are enforced there (modules/auth/principal-hook.ts).
  // The browser extension calls its routes from its own origin (ADR 0037): they answer it across origins
  // (refusals included, so it can read them), and nothing else of the API does.
  const isExtension = (origin: string | undefined) => isExtensionOrigin(origin, config.extensionOrigins);
  installExtensionCors(app, isExtension);
  installPrincipal(app, { auth: ctx.auth, db: database.db, isExtension });
  // CSRF: a state-changing API call must come from a trusted origin — our own, the bug-tracking host or a
  // team's active custom domain (served by this app). Cookies are SameSite=Lax too. It guards what a
  // browser sends on its own (cookies, and a link guest's or an anonymous caller's writes, as before
  // callers were kinds): a bearer principal carries its own credential, and its cookies are not read.
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith("/api/")) return;
    if (bearerOf(request.principal)) return;
    if (provesItself(request.routeOptions.config?.doc)) return;
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    // The extension's origin, without its credential, for the extension's own routes only (they check their
    // caller): a route that also takes a session is called by the extension with its credential.
    const accepts = acceptedBy(request.routeOptions.config?.doc);
    if (accepts.length > 0 && accepts.every((kind) => kind === "extension") && isExtension(origin)) return;
    if (!(await isTrustedOrigin(origin))) throw new ForbiddenError("Cross-site request refused.", "csrf");
  });
  await installApiRateLimits(app, ctx);

  // Each successful answer matches its route's declared response schema (tests: lib/routes.ts `response`).
  if (config.validateResponses) installResponseValidation(app);
  // Large JSON answers go compressed to browsers (lib/revalidate.ts).
  app.addHook("onSend", async (request, reply, payload) => compressLargeJson(request, reply, payload));

  // Nothing of the app may be framed by another site (clickjacking), except the /embed view.
  app.addHook("onSend", async (request, reply) => {
    if (request.url.startsWith("/embed/")) return;
    reply.header("x-frame-options", "SAMEORIGIN");
    reply.header("content-security-policy", "frame-ancestors 'self'");
  });

  app.setErrorHandler((error, request, reply) => {
    const body = (status: number, code: string, message: string): ApiErrorBody => ({
      error: statusText(status),
      code,
      message,
    });
    if (error instanceof PlanLimitError)
      return reply.status(402).send({ ...body(402, error.code, error.message), limit: error.limit });
    if (error instanceof TooManyRequestsError && error.retryAfterSeconds)
      reply.header("retry-after", error.retryAfterSeconds);
    if (error instanceof HttpError)
      return reply.status(error.statusCode).send(body(error.statusCode, error.code, error.message));
    if (error instanceof ZodError) {
      // Each issue's message is already a sentence for people (lib/validation-message.ts).
      const message = [...new Set(error.issues.map((issue) => issue.message))].join(" ");
      return reply.status(400).send(body(400, "validation", message));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply
        .status(status)
        .send(body(status, (error as { code?: string }).code ?? "bad-request", (error as Error).message));
    }
    // The disk full (or the user's quota): nothing was kept (files are written whole or not at all).
    const { code } = error as { code?: unknown };
    if (code === "ENOSPC" || code === "EDQUOT") {
      request.log.error({ err: error }, "no space left to store a file");
      return reply
        .status(507)
        .send(body(507, "storage-full", "There is no room left to store this. Try again later."));
    }
    // The database (or the file store) restarting or unreachable: the client tries again; the pool
    // reconnects by itself meanwhile.
    if (isBackendUnavailable(error)) {
      request.log.warn({ err: error }, "a backing service is unavailable");
      return reply
        .status(503)
        .header("retry-after", "5")
        .send(body(503, "unavailable", "The service is briefly unavailable. Try again in a few seconds."));
    }
    request.log.error(error);
    return reply.status(500).send(body(500, "internal", "Something went wrong"));
  });

  installMetrics(
    app,
    {
      database,
      websockets: () => app.websocketServer?.clients.size ?? 0,
      captureQueue: CAPTURE_QUEUE,
    },
    config.metrics,
  );
  installInputBoundary(app);
  await app.register(fastifyMultipart);
  // A socket asking to upgrade while the app stops is answered 503 by the router, which never ends that
  // connection: left open, it would hold the stop (server.close waits for it) until something cut it.
  let stopping = false;
  app.server.on("upgrade", (_request, socket) => {
    if (stopping) setTimeout(() => socket.destroy(), 200).unref();
  });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 64 * 1024 },
    // Stopping: every socket is told the server restarts (a client reconnects at once, to another process);
    // one whose client does not answer the close within 2 s is cut.
    async preClose() {
      stopping = true;
      const clients = [...app.websocketServer.clients];
      await Promise.all(
        clients.map(
          (client) =>
            new Promise<void>((resolve) => {
              const cut = setTimeout(() => {
                client.terminate();
                resolve();
              }, 2000);
              client.once("close", () => {
                clearTimeout(cut);
                resolve();
              });
              client.close(REALTIME_RESTART_CLOSE.code, REALTIME_RESTART_CLOSE.reason);
            }),
        ),
      );
      app.websocketServer.close();
    },
  });
  await app.register(authRoutes, { auth });
  await app.register(handoffRoutes, { ctx });
  await app.register(apiTokenRoutes, { ctx });
  await app.register(extensionRoutes, { ctx });
  await app.register(emailChangeRoutes, { ctx });
  await app.register(healthRoutes, { ctx, readiness });
  await app.register(usersRoutes, { ctx });
  await app.register(referralRoutes, { ctx });
  await app.register(unsubscribeRoutes, { ctx });
  await app.register(filesRoutes, { ctx });
  await app.register(projectsRoutes, { ctx });
  await app.register(pagesRoutes, { ctx });
  await app.register(versionsRoutes, { ctx });
  await app.register(membersRoutes, { ctx });
  await app.register(collaboratorsRoutes, { ctx });
  await app.register(sharingRoutes, { ctx });
  await app.register(commentsRoutes, { ctx });
  await app.register(attachmentsRoutes, { ctx });
  await app.register(videoRoutes, { ctx });
  await app.register(listsRoutes, { ctx });
  await app.register(ticketsRoutes, { ctx });
  await app.register(ticketThreadRoutes, { ctx });
  await app.register(inspectRoutes, { ctx });
  await app.register(slidesRoutes, { ctx });
  await app.register(notificationsRoutes, { ctx });
  await app.register(supportRoutes, { ctx });
  await app.register(analyticsRoutes, { ctx });
  await app.register(adminRoutes, { ctx });
  await app.register(reviewRequestsRoutes, { ctx });
  await app.register(conversationsRoutes, { ctx });
  await app.register(teamsRoutes, { ctx });
  await app.register(teamBrandingRoutes, { ctx });
  await app.register(teamMembersRoutes, { ctx });
  // The embedded stand-ins of outside services (packages/stand-ins): loaded only when one is wanted, which
  // env.ts never allows in production, so the production code path never imports them.
  const standIns = wantsStandIns(config) ? await import("@redline/stand-ins") : null;
  const domainDns = await startDomainDns(config, standIns?.startDevDnsServer);
  await app.register(teamDomainRoutes, { ctx, dns: domainDns.lookup });
  await app.register(customHostsRoutes, { ctx });
  if (standIns && domainDns.dev) await app.register(standIns.dnsDevRoutes, { ctx, dns: domainDns.dev });
  const stripe = createStripePayments(config);
  const paypal = createPaypalClient(config);
  await app.register(billingRoutes, { ctx, stripe, paypal });
  await app.register(pricesRoutes, { ctx });
  await app.register(billingWebhookRoutes, { ctx, stripe });
  await app.register(paypalRoutes, { ctx, paypal });
  await app.register(grantsRoutes, { ctx });
  await app.register(realtimeRoutes, { ctx, hub });
  await app.register(widgetRoutes, { ctx });
  await app.register(integrationsRoutes, { ctx });
  await app.register(trackersRoutes, { ctx });
  await app.register(slackRoutes, { ctx });
  let openApi: ReturnType<typeof openApiDocument> | undefined;
  app.get(
    "/api/openapi.json",
    route({ summary: "This document", action: "public", response: openApiDocumentSchema }),
    async () => {
      openApi ??= openApiDocument(registered, { version: API_VERSION, serverUrl: config.appUrl });
      return openApi;
    },
  );
  await app.register(mcpRoutes, { root: app, registry: registered, version: API_VERSION });
  if (!config.isProduction) await app.register(mailboxRoutes, { ctx });
  if (standIns && config.payments.embedded)
    await app.register(standIns.paymentsDevRoutes, {
      ctx,
      webhookUrl: `${selfUrl(config)}/api/billing/webhook`,
      webhookSecret: config.payments.webhookSecret,
    });
  if (standIns && config.paypal.embedded)
    await app.register(standIns.paypalDevRoutes, {
      ctx,
      webhookUrl: `${selfUrl(config)}/api/billing/paypal/webhook`,
    });
  if (standIns && config.productAnalytics?.embedded)
    await app.register(standIns.posthogDevRoutes, {
      prefix: EMBEDDED_POSTHOG_PATH,
      apiKey: config.productAnalytics.apiKey,
    });
  if (standIns && config.google?.embedded)
    await app.register(standIns.googleDevRoutes, {
      prefix: EMBEDDED_GOOGLE_PATH,
      appUrl: config.appUrl,
      client: {
        clientId: config.google.clientId,
        clientSecret: config.google.clientSecret,
        redirectUri: `${config.appUrl}/api/auth/callback/google`,
      },
    });
  // The task trackers' stand-ins, each under its path (Trello calls its client id and secret an API key
  // and secret).
  if (standIns) {
    type TrackerStandInOptions = { prefix: string; appUrl: string; clientId: string; clientSecret: string };
    const trackerStandIns: Record<
      (typeof TRACKER_TYPES)[number],
      (
        app: FastifyInstance,
        options: TrackerStandInOptions & { apiKey: string; apiSecret: string },
      ) => Promise<void>
    > = {
      trello: standIns.trelloDevRoutes,
      clickup: standIns.clickupDevRoutes,
      github: standIns.githubDevRoutes,
      asana: standIns.asanaDevRoutes,
      jira: standIns.jiraDevRoutes,
    };
    for (const type of TRACKER_TYPES) {
      const service = config.trackers[type];
      if (!service?.embedded) continue;
      await app.register(trackerStandIns[type], {
        prefix: EMBEDDED_TRACKER_PATHS[type],
        appUrl: config.appUrl,
        clientId: service.clientId,
        clientSecret: service.clientSecret,
        apiKey: service.clientId,
        apiSecret: service.clientSecret,
      });
    }
  }
  if (standIns && config.slack?.embedded)
    await app.register(standIns.slackDevRoutes, {
      prefix: EMBEDDED_SLACK_PATH,
      client: {
        clientId: config.slack.clientId,
        clientSecret: config.slack.clientSecret,
        redirectUri: `${config.appUrl}/api/integrations/slack/callback`,
      },
      signingSecret: config.slack.signingSecret,
      eventsUrl: `${selfUrl(config)}/api/integrations/slack/events`,
    });

  const hasWeb = existsSync(path.join(config.webDist, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      // The build writes each asset's .br and .gz beside it (vite.config.ts): sent to a browser that
      // accepts them, with Vary: Accept-Encoding; the file itself to anyone else.
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // A built asset that does not exist (an old chunk after a deploy) must 404, so the SPA can reload.
    const isPage =
      request.method === "GET" &&
      !["/api/", "/files/", "/assets/", "/health/", "/metrics"].some((prefix) =>
        request.url.startsWith(prefix),
      );
    if (isPage && hasWeb) return reply.header("cache-control", "no-cache").sendFile("index.html");
    return reply
      .status(404)
      .send({ error: "Not Found", code: "not-found", message: "Not found" } satisfies ApiErrorBody);
  });

  return { app, routes, registry: registered, content, ctx, readiness };
}

/** Whether the config asks for an embedded stand-in (no keys for a service, outside production). */
export function wantsStandIns(config: AppConfig): boolean {
  if (config.isProduction) return false;
  return (
    config.payments.embedded ||
    config.paypal.embedded ||
    config.customDomains.embeddedDns ||
    Boolean(config.google?.embedded) ||
    Boolean(config.productAnalytics?.embedded) ||
    Object.values(config.trackers).some((service) => service?.embedded) ||
    Boolean(config.slack?.embedded)
  );
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The caller's X-Request-Id when short and safe (no spaces, quotes or control characters), else a new id. */
function requestId(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

function statusText(status: number): string {
  return STATUS_CODES[status] ?? "Error";
}
