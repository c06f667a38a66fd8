/**
 * The task trackers this server connects, each from its config (real keys, or the embedded stand-in at
 * the app's own address outside production). A tracker without a config is not offered.
 */
import type { TrackerType } from "@redline/shared";
import type { AppConfig } from "../../../env.ts";
import type { GithubConfig } from "../../../integrations/github/index.ts";
import { selfUrl } from "../../../lib/self-url.ts";
import { asanaTracker } from "./asana.ts";
import { clickupTracker } from "./clickup.ts";
import { githubTracker } from "./github.ts";
import { jiraTracker } from "./jira.ts";
import type { Tracker } from "./tracker.ts";
import { trelloTracker } from "./trello.ts";

export const EMBEDDED_TRELLO_PATH = "/dev/trello";
export const EMBEDDED_CLICKUP_PATH = "/dev/clickup";
export const EMBEDDED_GITHUB_PATH = "/dev/github";
export const EMBEDDED_ASANA_PATH = "/dev/asana";
export const EMBEDDED_JIRA_PATH = "/dev/jira";

/** Where the app serves each tracker's embedded stand-in. */
export const EMBEDDED_TRACKER_PATHS: Record<TrackerType, string> = {
  trello: EMBEDDED_TRELLO_PATH,
  clickup: EMBEDDED_CLICKUP_PATH,
  github: EMBEDDED_GITHUB_PATH,
  asana: EMBEDDED_ASANA_PATH,
  jira: EMBEDDED_JIRA_PATH,
};

/** GitHub's client settings (its issues and the merge gate), or null when GitHub is not offered. */
export function githubConfigOf(config: AppConfig): GithubConfig | null {
  const service = config.trackers.github;
  if (!service) return null;
  return {
    apiUrl: service.apiUrl ?? `${selfUrl(config)}${EMBEDDED_GITHUB_PATH}/api/v3`,
    authorizeUrl: service.authorizeUrl ?? `${config.appUrl}${EMBEDDED_GITHUB_PATH}/login/oauth/authorize`,
    tokenUrl: service.tokenUrl ?? `${selfUrl(config)}${EMBEDDED_GITHUB_PATH}/login/oauth/access_token`,
    clientId: service.clientId,
    clientSecret: service.clientSecret,
  };
}

export function trackerFor(config: AppConfig, type: TrackerType): Tracker | null {
  const service = config.trackers[type];
  if (!service) return null;
  if (type === "trello")
    return trelloTracker({
      apiUrl: service.apiUrl ?? `${selfUrl(config)}${EMBEDDED_TRELLO_PATH}`,
      authorizeUrl: service.authorizeUrl ?? `${config.appUrl}${EMBEDDED_TRELLO_PATH}/1/authorize`,
      apiKey: service.clientId,
      apiSecret: service.clientSecret,
    });
  if (type === "github") return githubTracker(githubConfigOf(config)!);
  if (type === "asana") {
    // The token endpoint sits beside the API (`/-/oauth_token` next to `/api/1.0`), as at app.asana.com.
    const apiUrl = service.apiUrl ?? `${selfUrl(config)}${EMBEDDED_ASANA_PATH}/api/1.0`;
    return asanaTracker({
      apiUrl,
      authorizeUrl: service.authorizeUrl ?? `${config.appUrl}${EMBEDDED_ASANA_PATH}/-/oauth_authorize`,
      tokenUrl: `${apiUrl.replace(/\/api\/1\.0$/, "")}/-/oauth_token`,
      redirectUri: `${config.appUrl}/integration/asana`,
      clientId: service.clientId,
      clientSecret: service.clientSecret,
    });
  }
  if (type === "jira")
    // The stand-in serves Atlassian's two hosts under one prefix: /auth (auth.atlassian.com) and /api.
    return jiraTracker({
      apiUrl: service.apiUrl ?? `${selfUrl(config)}${EMBEDDED_JIRA_PATH}/api`,
      authorizeUrl: service.authorizeUrl ?? `${config.appUrl}${EMBEDDED_JIRA_PATH}/auth/authorize`,
      tokenUrl: service.tokenUrl ?? `${selfUrl(config)}${EMBEDDED_JIRA_PATH}/auth/oauth/token`,
      redirectUri: `${config.appUrl}/integration/jira`,
      clientId: service.clientId,
      clientSecret: service.clientSecret,
    });
  return clickupTracker({
    apiUrl: service.apiUrl ?? `${selfUrl(config)}${EMBEDDED_CLICKUP_PATH}`,
    authorizeUrl: service.authorizeUrl ?? `${config.appUrl}${EMBEDDED_CLICKUP_PATH}/api`,
    clientId: service.clientId,
    clientSecret: service.clientSecret,
  });
}

export type { Tracker } from "./tracker.ts";
