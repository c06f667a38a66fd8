/**
 * The Slack client (issue #30): Slack's kept SDK, `@slack/web-api`, pointed at Slack or at the embedded
 * stand-in this same process serves (packages/stand-ins/src/slack) through the SDK's `slackApiUrl`; the
 * OAuth v2 install link and code exchange; the few Web API methods Redline calls; and the check of an
 * Events API request's signature. The SDK neither retries nor logs here: the caller's durable job decides
 * when to try again, and no token ever reaches a log line or an error's text.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { ErrorCode, type Logger, LogLevel, WebClient } from "@slack/web-api";
import type { AppConfig, SlackConfig } from "../../env.ts";
import { selfUrl } from "../../lib/self-url.ts";

/** Where the embedded Slack stand-in is served. */
export const EMBEDDED_SLACK_PATH = "/dev/slack";
/**
 * What the bot asks for: read the channels to choose one, post, unfurl links, and hear the replies in the
 * threads it started (the channels' `message` events) with their authors' names.
 */
export const SLACK_SCOPES = [
  "channels:read",
  "groups:read",
  "chat:write",
  "links:read",
  "links:write",
  "channels:history",
  "groups:history",
  "users:read",
];
/** Slack refuses a request signed more than five minutes away from now; so do we. */
export const SLACK_SIGNATURE_WINDOW_S = 5 * 60;

export type SlackFailure = "revoked" | "retry" | "refused";

/** A call Slack did not do; `kind` says whether waiting helps. Its message never holds a credential. */
export class SlackCallError extends Error {
  constructor(
    readonly kind: SlackFailure,
    readonly code: string,
  ) {
    super(`Slack answered ${code}`);
  }
}

const REVOKED = new Set(["invalid_auth", "token_revoked", "account_inactive", "not_authed", "token_expired"]);

/** The SDK's errors as kinds (it tells platform errors, rate limits and HTTP failures apart by `code`). */
function classify(error: unknown): SlackCallError {
  const failure = error as { code?: string; data?: { error?: string }; statusCode?: number };
  if (failure.code === ErrorCode.PlatformError) {
    const code = failure.data?.error ?? "unknown_error";
    return new SlackCallError(
      REVOKED.has(code) ? "revoked" : code === "ratelimited" ? "retry" : "refused",
      code,
    );
  }
  if (failure.code === ErrorCode.RateLimitedError) return new SlackCallError("retry", "ratelimited");
  if (failure.code === ErrorCode.HTTPError)
    return new SlackCallError("retry", `http_${failure.statusCode ?? "error"}`);
  return new SlackCallError("retry", "unreachable");
}

const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

export interface SlackChannel {
  id: string;
  name: string;
  isPrivate: boolean;
}

export interface SlackInstall {
  botToken: string;
  teamId: string;
  teamName: string;
  botUserId: string | null;
}

export interface SlackClient {
  config: SlackConfig;
  /** Slack's install page for this state (the user goes there, then comes back to `redirectUri`). */
  authorizeUrl(state: string): string;
  redirectUri: string;
  exchangeCode(code: string): Promise<SlackInstall>;
  listChannels(token: string): Promise<SlackChannel[]>;
  postMessage(
    token: string,
    message: { channel: string; text: string; threadTs?: string | null; blocks?: unknown[] },
  ): Promise<{ ts: string }>;
  unfurl(
    token: string,
    input: { channel: string; ts: string; unfurls: Record<string, unknown> },
  ): Promise<void>;
  /** A member's name as the workspace shows it (display name, else real name, else handle). */
  userName(token: string, userId: string): Promise<string>;
}

export function createSlackClient(
  config: Pick<AppConfig, "slack" | "appUrl" | "host" | "port">,
): SlackClient | null {
  const slack = config.slack;
  if (!slack) return null;
  const apiUrl = slack.apiUrl ?? `${selfUrl(config)}${EMBEDDED_SLACK_PATH}/api/`;
  const oauthBase = slack.embedded
    ? `${config.appUrl}${EMBEDDED_SLACK_PATH}`
    : apiUrl.replace(/\/api\/$/, "");
  const redirectUri = `${config.appUrl}/api/integrations/slack/callback`;
  const web = (token?: string) =>
    new WebClient(token, {
      slackApiUrl: apiUrl,
      logger: silent,
      logLevel: LogLevel.ERROR,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: 10_000,
    });
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw classify(error);
    }
  };
  return {
    config: slack,
    redirectUri,
    authorizeUrl(state) {
      const url = new URL(`${oauthBase}/oauth/v2/authorize`);
      url.searchParams.set("client_id", slack.clientId);
      url.searchParams.set("scope", SLACK_SCOPES.join(","));
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("state", state);
      return url.toString();
    },
    async exchangeCode(code) {
      const answer = await call(() =>
        web().oauth.v2.access({
          client_id: slack.clientId,
          client_secret: slack.clientSecret,
          code,
          redirect_uri: redirectUri,
        }),
      );
      if (!answer.access_token || !answer.team?.id) throw new SlackCallError("refused", "no_bot_token");
      return {
        botToken: answer.access_token,
        teamId: answer.team.id,
        teamName: answer.team.name ?? answer.team.id,
        botUserId: answer.bot_user_id ?? null,
      };
    },
    async listChannels(token) {
      const channels: SlackChannel[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const answer = await call(() =>
          web(token).conversations.list({
            types: "public_channel,private_channel",
            exclude_archived: true,
            limit: 200,
            ...(cursor && { cursor }),
          }),
        );
        for (const channel of answer.channels ?? [])
          if (channel.id && channel.name)
            channels.push({ id: channel.id, name: channel.name, isPrivate: channel.is_private === true });
        cursor = answer.response_metadata?.next_cursor || undefined;
        if (!cursor) break;
      }
      return channels.sort((a, b) => a.name.localeCompare(b.name));
    },
    async postMessage(token, { channel, text, threadTs, blocks }) {
      const answer = await call(() =>
        web(token).chat.postMessage({
          channel,
          text,
          ...(threadTs && { thread_ts: threadTs }),
          ...(blocks && { blocks: blocks as never }),
          unfurl_links: false,
        }),
      );
      if (!answer.ts) throw new SlackCallError("refused", "no_ts");
      return { ts: answer.ts };
    },
    async unfurl(token, { channel, ts, unfurls }) {
      await call(() => web(token).chat.unfurl({ channel, ts, unfurls: unfurls as never }));
    },
    async userName(token, userId) {
      const answer = await call(() => web(token).users.info({ user: userId }));
      const user = answer.user;
      return user?.profile?.display_name || user?.real_name || user?.name || userId;
    },
  };
}

/**
 * Whether an Events API request is Slack's: `X-Slack-Signature` is `v0=` + HMAC-SHA256 of
 * `v0:{X-Slack-Request-Timestamp}:{raw body}` with the app's signing secret, and the timestamp is within
 * five minutes of now (a replayed request is refused).
 */
export function verifySlackSignature(
  signingSecret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > SLACK_SIGNATURE_WINDOW_S) return false;
  const expected = `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${rawBody}`).digest("hex")}`;
  const given = Buffer.from(signature);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
