/**
 * Jira Cloud as a tracker: a site (its cloudId) holds projects; cards go to a project as an issue type the
 * person chose ("Website — Task"), so a destination's list id is `{projectId}/{issueTypeId}`. An issue's
 * id is `{cloudId}/{issueId}`, a webhook's `{cloudId}/{webhookId}` (the calls need the site).
 * Resolving moves the issue through a transition to a Done-category status, reopening through one to a
 * To Do (else In Progress) one. Access tokens last an hour and refresh tokens rotate (`refresh`).
 * The project's dynamic webhook (issue updated/deleted) has no body signature: its URL ends in a
 * per-integration secret and it carries Jira's JWT under the client secret (`verifyInbound` checks both),
 * and a delivery only names the issue — its status is read again (`isClosed`). Webhooks expire after 30 days; `renewWatch` extends them whenever the integration is used.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { TrackerContainer } from "@redline/shared";
import {
  createJiraClient,
  exchangeJiraCode,
  type JiraConfig,
  JiraError,
  type JiraGrant,
  type JiraWebhookEvent,
  jiraAuthorizeUrl,
  jiraSites,
  refreshJiraToken,
  verifyJiraWebhookToken,
} from "../../../integrations/jira/index.ts";
import type { InboundChange, Tracker, TrackerGrant } from "./tracker.ts";

/** Jira's limit on a summary. */
const SUMMARY_MAX = 255;
const EVENTS = ["jira:issue_updated", "jira:issue_deleted"];

const grantOf = (grant: JiraGrant): TrackerGrant => ({
  token: grant.accessToken,
  expiresAt: grant.expiresAt,
  ...(grant.refreshToken && { refreshToken: grant.refreshToken }),
});

/** `{cloudId}/{id}` split; anything else is Jira's 404 (the issue or webhook is gone as far as anyone can tell). */
function refOf(id: string, what: string) {
  const match = /^([^/\s]+)\/([0-9]+)$/.exec(id);
  if (!match) throw new JiraError(404, `Not a Jira ${what}: ${id}`);
  return { cloudId: match[1]!, id: match[2]! };
}

function sameSecret(given: string | undefined, kept: string | undefined): boolean {
  if (!given || !kept) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(kept);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function jiraTracker(config: JiraConfig): Tracker {
  const client = (token: string, cloudId: string) => createJiraClient(config, token, cloudId);
  return {
    type: "jira",
    // The redirect URI is the app's return route (config.redirectUri), registered with the Atlassian app.
    authorizeUrl: ({ state }) => jiraAuthorizeUrl(config, state),
    async connect({ code }) {
      if (!code) throw new Error("Jira hands back a code.");
      const grant = grantOf(await exchangeJiraCode(config, code));
      const [site] = await jiraSites(config, grant.token);
      if (!site) throw new JiraError(403, "The Jira account granted no site.");
      const me = await client(grant.token, site.id).myself();
      return { ...grant, account: me.displayName ?? site.name };
    },
    async refresh(refreshToken) {
      // Rotating refresh tokens: the answer's replaces the one spent (kept if Jira sent none).
      return { refreshToken, ...grantOf(await refreshJiraToken(config, refreshToken)) };
    },
    async destinations(token) {
      const sites = await jiraSites(config, token);
      return Promise.all(
        sites.map(
          async (site): Promise<TrackerContainer> => ({
            id: site.id,
            name: site.name,
            lists: (await client(token, site.id).projects()).flatMap((project) =>
              project.issueTypes.map((type) => ({
                id: `${project.id}/${type.id}`,
                name: `${project.name} — ${type.name}`,
              })),
            ),
          }),
        ),
      );
    },
    async createCard(token, destination, card) {
      const cloudId = destination.containerId;
      const [projectId, issueTypeId] = destination.listId.split("/");
      if (!projectId || !issueTypeId) throw new JiraError(400, "Choose a project and an issue type.");
      const title = card.title.length > SUMMARY_MAX ? `${card.title.slice(0, SUMMARY_MAX - 1)}…` : card.title;
      const issue = await client(token, cloudId).createIssue({
        projectId,
        issueTypeId,
        summary: title.replace(/\s+/g, " ").trim() || "Comment",
        description: card.description,
      });
      const site = (await jiraSites(config, token)).find((s) => s.id === cloudId);
      return { id: `${cloudId}/${issue.id}`, url: site ? `${site.url}/browse/${issue.key}` : "" };
    },
    async setClosed(token, externalId, closed) {
      const { cloudId, id } = refOf(externalId, "issue");
      const jira = client(token, cloudId);
      const now = await jira.statusCategory(id);
      if ((now === "done") === closed) return;
      const transitions = await jira.transitions(id);
      const to = closed
        ? transitions.find((t) => t.to === "done")
        : (transitions.find((t) => t.to === "new") ?? transitions.find((t) => t.to === "indeterminate"));
      if (!to)
        throw new JiraError(
          409,
          `The issue's workflow has no transition to a ${closed ? "Done" : "To Do"} status from here.`,
        );
      await jira.transition(id, to.id);
    },
    async deleteCard(token, externalId) {
      const { cloudId, id } = refOf(externalId, "issue");
      await client(token, cloudId).deleteIssue(id);
    },
    async isClosed(token, externalId) {
      const { cloudId, id } = refOf(externalId, "issue");
      return (await client(token, cloudId).statusCategory(id)) === "done";
    },
    async watch(token, destination, callbackUrl) {
      const cloudId = destination.containerId;
      const [projectId] = destination.listId.split("/");
      if (!projectId || !/^[0-9]+$/.test(projectId)) throw new JiraError(400, "Not a Jira project.");
      // Nothing signs the deliveries: the URL's secret, one per webhook, is what proves them.
      const key = randomBytes(32).toString("hex");
      const webhookId = await client(token, cloudId).registerWebhook({
        url: `${callbackUrl}/${key}`,
        jqlFilter: `project = ${projectId}`,
        events: EVENTS,
      });
      return { hookId: `${cloudId}/${webhookId}`, hookSecret: key };
    },
    async unwatch(token, hookId) {
      const { cloudId, id } = refOf(hookId, "webhook");
      await client(token, cloudId).deleteWebhooks([Number(id)]);
    },
    async renewWatch(token, hookId) {
      const { cloudId, id } = refOf(hookId, "webhook");
      await client(token, cloudId).refreshWebhooks([Number(id)]);
    },
    verifyInbound({ rawBody, key, headers }, secrets) {
      const authorization = typeof headers.authorization === "string" ? headers.authorization : undefined;
      if (
        !secrets.hookId ||
        !sameSecret(key, secrets.hookSecret) ||
        !verifyJiraWebhookToken(config.clientSecret, authorization)
      )
        return null;
      const { cloudId } = refOf(secrets.hookId, "webhook");
      const event = JSON.parse(rawBody) as JiraWebhookEvent;
      const issueId = event.issue?.id;
      if (!issueId || !/^[0-9]+$/.test(issueId)) return [];
      const statusChanged = event.changelog?.items?.some(
        (item) => item.fieldId === "status" || item.field === "status",
      );
      // Only a status change (or a deletion) may move the thread; what it is now is read from Jira.
      if (!(event.webhookEvent === "jira:issue_deleted" || statusChanged)) return [];
      const changes: InboundChange[] = [
        { externalId: `${cloudId}/${issueId}`, closed: null, at: new Date(event.timestamp ?? Number.NaN) },
      ];
      return changes;
    },
  };
}
