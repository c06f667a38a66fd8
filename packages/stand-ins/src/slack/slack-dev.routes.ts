/**
 * The embedded Slack stand-in (development and tests only; no SLACK_CLIENT_ID): one test workspace with a
 * few channels, Slack's OAuth v2 install (`/oauth/v2/authorize`, a page that approves or cancels, and the
 * `oauth.v2.access` token exchange), the Web API methods Redline calls (`auth.test`, `conversations.list`,
 * `chat.postMessage` with `thread_ts`, `chat.unfurl`, `users.info`) answering Slack's `{ ok, error }`
 * shapes, a channel's page (`/channels/{id}`: its messages and threads, a form to reply in a thread as a
 * person), and test controls: read a channel's messages, post a person's reply in a thread or share a link
 * (each delivered to the app's Events API endpoint signed as Slack signs: `v0=` HMAC-SHA256 of
 * `v0:{timestamp}:{body}`), send a `url_verification`, revoke a token, and make the next calls of a method
 * fail (500 or 429).
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";
import { channelPage } from "./channel-page.ts";
import { installPage } from "./install-page.ts";

export interface SlackDevOptions {
  /** Registered by the app at start: the one Slack app this workspace knows. */
  client: { clientId: string; clientSecret: string; redirectUri: string };
  /** The app's signing secret and its Events API request URL. */
  signingSecret: string;
  eventsUrl: string;
  prefix?: string;
}

export const SLACK_TEAM = { id: "T0REDLINE1", name: "Redline test workspace", domain: "redline-test" };
export const SLACK_CHANNELS = [
  { id: "C0GENERAL1", name: "general" },
  { id: "C0REVIEWS1", name: "design-reviews" },
  { id: "C0RANDOM01", name: "random" },
] as const;
export const SLACK_BOT_USER = "U0REDLINEB";
const BOT_USER = SLACK_BOT_USER;
const INSTALLER = "U0INSTALL1";
const CODE_TTL_MS = 10 * 60_000;

export interface SlackMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  user?: string;
  bot_id?: string;
  blocks?: unknown;
}

interface Unfurl {
  channel: string;
  ts: string;
  unfurls: Record<string, unknown>;
}

/** Slack's signature of one request body (the app checks it the same way). */
export function slackSignature(signingSecret: string, timestamp: string, body: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

const authorizeQuery = z.object({
  client_id: z.string().max(200),
  scope: z.string().max(2000).default(""),
  redirect_uri: z.string().max(2000),
  state: z.string().max(2000).optional(),
});

const replyBody = z.object({
  channel: z.string().max(40),
  thread_ts: z.string().max(40),
  text: z.string().min(1).max(4000),
  user: z.string().max(40).optional(),
  userName: z.string().trim().min(1).max(80).default("Slack reviewer"),
});

const shareBody = z.object({ channel: z.string().max(40), url: z.string().max(2000) });
const failBody = z.object({
  method: z.string().max(60),
  status: z.union([z.literal(500), z.literal(429)]),
  times: z.number().int().min(1).max(100).default(1),
});

export async function slackDevRoutes(app: FastifyInstance, options: SlackDevOptions) {
  const prefix = options.prefix ?? "";
  const codes = new Map<string, { redirectUri: string; scope: string; expiresAt: number }>();
  const tokens = new Set<string>();
  const messages: SlackMessage[] = [];
  const unfurls: Unfurl[] = [];
  const failures = new Map<string, { status: 500 | 429; times: number }>();
  /** The workspace's people who wrote here, by member id (what `users.info` answers). */
  const people = new Map<string, string>([["U0REVIEWER", "Slack reviewer"]]);
  let counter = 0;
  const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String(++counter).padStart(6, "0")}`;

  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const html = (reply: FastifyReply) =>
    reply.type("text/html; charset=utf-8").header("cache-control", "no-store");

  app.get(
    "/oauth/v2/authorize",
    route({ summary: "Install the Slack app in the test workspace (embedded Slack)", action: "public" }),
    async (request, reply) => {
      const query = authorizeQuery.safeParse(request.query);
      const problem = !query.success
        ? "Something's missing from the install link."
        : query.data.client_id !== options.client.clientId
          ? "Invalid client_id parameter."
          : query.data.redirect_uri !== options.client.redirectUri
            ? "redirect_uri did not match any configured URIs."
            : null;
      if (problem || !query.success)
        return html(reply)
          .status(400)
          .send(installPage({ action: "", error: problem }));
      return html(reply).send(
        installPage({
          action: `${prefix}/oauth/v2/authorize`,
          params: query.data,
          team: SLACK_TEAM.name,
        }),
      );
    },
  );

  app.post(
    "/oauth/v2/authorize",
    route({ summary: "The installer's decision (embedded Slack)", action: "public" }),
    async (request, reply) => {
      const body = authorizeQuery.extend({ decision: z.enum(["allow", "deny"]) }).safeParse(request.body);
      if (
        !body.success ||
        body.data.client_id !== options.client.clientId ||
        body.data.redirect_uri !== options.client.redirectUri
      )
        return html(reply)
          .status(400)
          .send(installPage({ action: "", error: "Invalid install request." }));
      const back = new URL(body.data.redirect_uri);
      if (body.data.state) back.searchParams.set("state", body.data.state);
      if (body.data.decision === "deny") {
        back.searchParams.set("error", "access_denied");
        return reply.redirect(back.toString(), 302);
      }
      const code = `${SLACK_TEAM.id}.${randomBytes(18).toString("hex")}`;
      codes.set(code, {
        redirectUri: body.data.redirect_uri,
        scope: body.data.scope,
        expiresAt: Date.now() + CODE_TTL_MS,
      });
      back.searchParams.set("code", code);
      return reply.redirect(back.toString(), 302);
    },
  );

  /** The Web API's arguments: form fields or a JSON body. */
  const argsOf = (request: FastifyRequest): Record<string, unknown> =>
    request.body && typeof request.body === "object" ? (request.body as Record<string, unknown>) : {};
  const str = (args: Record<string, unknown>, name: string) =>
    typeof args[name] === "string" ? (args[name] as string) : "";

  app.post(
    "/api/oauth.v2.access",
    route({ summary: "Exchange an install code for a bot token (embedded Slack)", action: "public" }),
    async (request) => {
      const args = argsOf(request);
      let clientId = str(args, "client_id");
      let clientSecret = str(args, "client_secret");
      const [scheme, encoded] = (request.headers.authorization ?? "").split(" ");
      if (scheme === "Basic" && encoded) {
        const [id, ...secret] = Buffer.from(encoded, "base64").toString("utf8").split(":");
        clientId = id ?? "";
        clientSecret = secret.join(":");
      }
      if (clientId !== options.client.clientId) return { ok: false, error: "invalid_client_id" };
      if (clientSecret !== options.client.clientSecret) return { ok: false, error: "bad_client_secret" };
      const code = str(args, "code");
      const grant = codes.get(code);
      codes.delete(code);
      if (!grant || grant.expiresAt < Date.now()) return { ok: false, error: "invalid_code" };
      if (str(args, "redirect_uri") !== grant.redirectUri) return { ok: false, error: "bad_redirect_uri" };
      const token = `xoxb-${randomBytes(20).toString("hex")}`;
      tokens.add(token);
      return {
        ok: true,
        access_token: token,
        token_type: "bot",
        scope: grant.scope,
        bot_user_id: BOT_USER,
        app_id: "A0REDLINE1",
        team: { id: SLACK_TEAM.id, name: SLACK_TEAM.name },
        enterprise: null,
        authed_user: { id: INSTALLER },
        is_enterprise_install: false,
      };
    },
  );

  /** A Web API method behind the bot token; a failure the tests asked for answers first. */
  const method = (
    name: string,
    summary: string,
    handle: (args: Record<string, unknown>) => Record<string, unknown>,
  ) =>
    app.post(
      `/api/${name}`,
      route({ summary: `${summary} (embedded Slack)`, action: "public" }),
      async (request, reply) => {
        const failure = failures.get(name);
        if (failure) {
          if (--failure.times <= 0) failures.delete(name);
          if (failure.status === 429)
            return reply.status(429).header("retry-after", "1").send({ ok: false, error: "ratelimited" });
          return reply.status(500).send("Internal Server Error");
        }
        const args = argsOf(request);
        const [scheme, bearer] = (request.headers.authorization ?? "").split(" ");
        const token = scheme === "Bearer" && bearer ? bearer : str(args, "token");
        if (!token) return { ok: false, error: "not_authed" };
        if (!tokens.has(token)) return { ok: false, error: "invalid_auth" };
        return handle(args);
      },
    );

  const channelOf = (id: string) => SLACK_CHANNELS.find((channel) => channel.id === id);

  method("auth.test", "Who the token is", () => ({
    ok: true,
    url: `https://${SLACK_TEAM.domain}.slack.com/`,
    team: SLACK_TEAM.name,
    user: "redline",
    team_id: SLACK_TEAM.id,
    user_id: BOT_USER,
    bot_id: "B0REDLINE1",
  }));

  method("conversations.list", "The workspace's channels", () => ({
    ok: true,
    channels: SLACK_CHANNELS.map((channel) => ({
      id: channel.id,
      name: channel.name,
      is_channel: true,
      is_private: false,
      is_archived: false,
      is_member: true,
    })),
    response_metadata: { next_cursor: "" },
  }));

  method("chat.postMessage", "Post a message (or a reply in a thread)", (args) => {
    const channel = str(args, "channel");
    const text = str(args, "text");
    if (!channelOf(channel)) return { ok: false, error: "channel_not_found" };
    if (!text && !args.blocks) return { ok: false, error: "no_text" };
    const threadTs = str(args, "thread_ts");
    if (threadTs && !messages.some((m) => m.channel === channel && m.ts === threadTs && !m.thread_ts))
      return { ok: false, error: "thread_not_found" };
    const message: SlackMessage = {
      channel,
      ts: nextTs(),
      text,
      bot_id: "B0REDLINE1",
      ...(threadTs && { thread_ts: threadTs }),
      ...(args.blocks !== undefined && {
        blocks: typeof args.blocks === "string" ? JSON.parse(args.blocks) : args.blocks,
      }),
    };
    messages.push(message);
    return { ok: true, channel, ts: message.ts, message: { ...message, type: "message" } };
  });

  method("users.info", "A member's profile", (args) => {
    const id = str(args, "user");
    const name = people.get(id);
    if (!name) return { ok: false, error: "user_not_found" };
    return {
      ok: true,
      user: {
        id,
        team_id: SLACK_TEAM.id,
        name: name.toLowerCase().replace(/\s+/g, "."),
        real_name: name,
        is_bot: false,
        profile: { display_name: name, real_name: name },
      },
    };
  });

  method("chat.unfurl", "Unfurl links in a message", (args) => {
    const channel = str(args, "channel");
    const ts = str(args, "ts");
    if (!channelOf(channel)) return { ok: false, error: "channel_not_found" };
    const raw = args.unfurls;
    const parsed = typeof raw === "string" ? (JSON.parse(raw) as Record<string, unknown>) : raw;
    if (!parsed || typeof parsed !== "object") return { ok: false, error: "invalid_unfurls" };
    unfurls.push({ channel, ts, unfurls: parsed as Record<string, unknown> });
    return { ok: true };
  });

  /** Sends one Events API request to the app, signed as Slack signs it. */
  async function deliver(payload: Record<string, unknown>, signedAt = Math.floor(Date.now() / 1000)) {
    const body = JSON.stringify(payload);
    const timestamp = String(signedAt);
    const response = await fetch(options.eventsUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": slackSignature(options.signingSecret, timestamp, body),
      },
      body,
    });
    return { status: response.status, body: await response.text() };
  }

  const callback = (event: Record<string, unknown>) => ({
    token: "deprecated-verification-token",
    team_id: SLACK_TEAM.id,
    api_app_id: "A0REDLINE1",
    event,
    type: "event_callback",
    event_id: `Ev${randomBytes(6).toString("hex").toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
  });

  const dev = (summary: string) => route({ summary: `${summary} (embedded Slack, tests)`, action: "public" });

  app.get("/dev/messages", dev("A channel's messages"), async (request) => {
    const channel =
      typeof (request.query as { channel?: unknown }).channel === "string"
        ? (request.query as { channel: string }).channel
        : null;
    return { messages: messages.filter((m) => !channel || m.channel === channel), unfurls };
  });

  /** A person's reply in a thread, then the `message` event Slack sends the app for it. */
  async function replyInThread(input: z.infer<typeof replyBody>) {
    const { channel, thread_ts, text, userName } = input;
    const user =
      input.user ?? `U0${createHash("sha1").update(userName).digest("hex").slice(0, 8).toUpperCase()}`;
    people.set(user, userName);
    const message: SlackMessage = { channel, ts: nextTs(), thread_ts, text, user };
    messages.push(message);
    const delivered = await deliver(
      callback({
        type: "message",
        channel,
        user,
        text,
        ts: message.ts,
        thread_ts,
        channel_type: "channel",
        event_ts: message.ts,
      }),
    );
    return { message, delivered };
  }

  app.post("/dev/reply", dev("A person replies in a thread"), async (request, reply) => {
    const body = replyBody.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: "channel, thread_ts and text are required" });
    return replyInThread(body.data);
  });

  const pageUrl = (channelId: string) => `${prefix}/channels/${encodeURIComponent(channelId)}`;

  app.get(
    "/channels/:channelId",
    route({ summary: "A channel's messages and threads (embedded Slack)", action: "public" }),
    async (request, reply) => {
      const channel = channelOf((request.params as { channelId: string }).channelId);
      if (!channel) return html(reply).status(404).send("channel_not_found");
      return html(reply).send(
        channelPage({
          channel,
          channels: SLACK_CHANNELS,
          pageUrl,
          replyUrl: `${prefix}/channels/${encodeURIComponent(channel.id)}/reply`,
          messages: messages.filter((m) => m.channel === channel.id),
          names: people,
        }),
      );
    },
  );

  app.post(
    "/channels/:channelId/reply",
    route({ summary: "Reply in a thread from the channel's page (embedded Slack)", action: "public" }),
    async (request, reply) => {
      const channelId = (request.params as { channelId: string }).channelId;
      const body = replyBody.safeParse({ ...(request.body as object), channel: channelId });
      if (!body.success || !channelOf(channelId)) return html(reply).status(400).send("invalid_reply");
      await replyInThread(body.data);
      return reply.redirect(pageUrl(channelId), 303);
    },
  );

  app.post("/dev/share-link", dev("A person shares a link"), async (request, reply) => {
    const body = shareBody.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: "channel and url are required" });
    const message: SlackMessage = {
      channel: body.data.channel,
      ts: nextTs(),
      text: `<${body.data.url}>`,
      user: "U0REVIEWER",
    };
    messages.push(message);
    const delivered = await deliver(
      callback({
        type: "link_shared",
        channel: body.data.channel,
        user: "U0REVIEWER",
        message_ts: message.ts,
        links: [{ domain: new URL(body.data.url).host, url: body.data.url }],
      }),
    );
    return { message, delivered };
  });

  app.post("/dev/url-verification", dev("Verify the request URL"), async () => {
    const challenge = randomBytes(16).toString("hex");
    const delivered = await deliver({
      token: "deprecated-verification-token",
      challenge,
      type: "url_verification",
    });
    let echoed: unknown = null;
    try {
      echoed = (JSON.parse(delivered.body) as { challenge?: unknown }).challenge ?? null;
    } catch {}
    return { verified: delivered.status === 200 && echoed === challenge, delivered };
  });

  app.post("/dev/revoke", dev("Revoke every token"), async () => {
    const count = tokens.size;
    tokens.clear();
    return { revoked: count };
  });

  app.post("/dev/fail", dev("The next calls of a method fail"), async (request, reply) => {
    const body = failBody.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: "method, status (500 or 429) and times" });
    failures.set(body.data.method, { status: body.data.status, times: body.data.times });
    return { ok: true };
  });
}
