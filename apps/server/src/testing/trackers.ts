/**
 * Task-tracker fixtures for API tests: the browser's part of each stand-in's authorize flow (allowing on
 * its page and reading where it sends the browser back), and a connected tracker integration row.
 */
import { randomBytes } from "node:crypto";
import type { TrackerType } from "@redline/shared";
import { jiraWebhookToken } from "@redline/stand-ins";
import { projectIntegrations, trackerCards } from "../db/schema/index.ts";
import { newId } from "../lib/ids.ts";
import { trackerFor } from "../modules/integrations/trackers/index.ts";
import { trackerSecrets } from "../modules/integrations/trackers/trackers.load.ts";
import { inboundUrl } from "../modules/integrations/trackers/trackers.operations.ts";
import type { Person } from "./people.ts";
import type { TestApp } from "./test-app.ts";

/** Posts the stand-in's authorize form with "allow"; returns where it sends the browser back. */
export async function allow(
  t: TestApp,
  authorizeUrl: string,
  fields: Record<string, string> = {},
): Promise<URL> {
  const url = new URL(authorizeUrl);
  const answer = await fetch(`${t.url}${url.pathname}`, {
    method: "POST",
    body: new URLSearchParams({ ...Object.fromEntries(url.searchParams), ...fields, decision: "allow" }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  const location = answer.headers.get("location");
  if (!location) throw new Error(`The stand-in did not send the browser back (${answer.status}).`);
  return new URL(location);
}

/** Trello: the token in the return URL's fragment, and the state in its query. */
export async function allowTrello(t: TestApp, authorizeUrl: string, member = "Tess Trello") {
  const back = await allow(t, authorizeUrl, { member });
  return {
    back,
    state: back.searchParams.get("state")!,
    token: new URLSearchParams(back.hash.slice(1)).get("token")!,
  };
}

/** ClickUp: the code and state in the return URL's query. */
export async function allowClickup(t: TestApp, authorizeUrl: string, username = "Cleo Clickup") {
  const back = await allow(t, authorizeUrl, { username });
  return { back, state: back.searchParams.get("state")!, code: back.searchParams.get("code")! };
}

/** GitHub: the code and state in the return URL's query. */
export async function allowGithub(t: TestApp, authorizeUrl: string, login = "gita-hub") {
  const back = await allow(t, authorizeUrl, { login });
  return { back, state: back.searchParams.get("state")!, code: back.searchParams.get("code")! };
}

/** Asana: the code and state in the return URL's query. */
export async function allowAsana(t: TestApp, authorizeUrl: string, name = "Ada Asana") {
  const back = await allow(t, authorizeUrl, { name });
  return { back, state: back.searchParams.get("state")!, code: back.searchParams.get("code")! };
}

/** Jira: the code and state in the return URL's query (Atlassian's consent page, "Accept"). */
export async function allowJira(t: TestApp, authorizeUrl: string, name = "Jade Jira") {
  const back = await allow(t, authorizeUrl, { name });
  return { back, state: back.searchParams.get("state")!, code: back.searchParams.get("code")! };
}

const ALLOW = {
  trello: allowTrello,
  clickup: allowClickup,
  github: allowGithub,
  asana: allowAsana,
  jira: allowJira,
};

/** Any tracker: allows on its page (as `account`, else the fixture's name); the grant as the connect route takes it. */
export async function allowTracker(t: TestApp, tracker: TrackerType, authorizeUrl: string, account?: string) {
  const granted = await ALLOW[tracker](t, authorizeUrl, account);
  const grant: { token: string } | { code: string } =
    "token" in granted ? { token: granted.token } : { code: granted.code };
  return { back: granted.back, state: granted.state, grant };
}

/**
 * A project's tracker connected by `person` through its authorize page and the return route, cards going to
 * the account's first container's list number `list` (none chosen when null).
 */
export async function connectTracker(
  t: TestApp,
  person: Person,
  input: { projectId: string; tracker: TrackerType; account?: string; list?: number | null },
) {
  const base = `/api/projects/${input.projectId}/integrations`;
  const started = await person.client.get(`${base}/${input.tracker}/authorize`);
  const { state, grant } = await allowTracker(t, input.tracker, started.body.data.url, input.account);
  const connected = await person.client.post(`/api/integrations/${input.tracker}/connect`, {
    state,
    ...grant,
  });
  if (connected.status !== 200) throw new Error(`Connecting ${input.tracker} answered ${connected.status}.`);
  if (input.list === null) return connected;
  const [container] = (await person.client.get(`${base}/${input.tracker}/destinations`)).body.data;
  const chosen = await person.client.put(`${base}/${input.tracker}`, {
    containerId: container.id,
    listId: container.lists[input.list ?? 0].id,
  });
  if (chosen.status !== 200)
    throw new Error(`Choosing a ${input.tracker} destination answered ${chosen.status}.`);
  return chosen;
}

/** A fresh grant at a tracker's stand-in, as the return route receives it (the state left to the caller). */
export async function trackerGrant(
  t: TestApp,
  tracker: TrackerType,
): Promise<{ token?: string; code?: string }> {
  const url = trackerFor(t.ctx.config, tracker)!.authorizeUrl({
    returnUrl: `${t.url}/integration/${tracker}`,
    state: "s",
  });
  if (tracker === "trello") return { token: (await allowTrello(t, url)).token };
  if (tracker === "github") return { code: (await allowGithub(t, url)).code };
  if (tracker === "asana") return { code: (await allowAsana(t, url)).code };
  if (tracker === "jira") return { code: (await allowJira(t, url)).code };
  return { code: (await allowClickup(t, url)).code };
}

export interface TrackerFixture {
  integrationId: string;
  /** A made card of the project's, from its edit suggestion (`changeId`). */
  cardId: string;
  /** The secret the tracker signs its webhook with for this integration (ClickUp, GitHub, Asana: per webhook). */
  hookSecret: string;
  /** Where the tracker's webhook calls back for this integration (Trello signs it; Jira's holds the secret). */
  webhookUrl: string;
  destination: { containerId: string; listId: string };
  /** Headers the tracker sends with every delivery besides its signature (Jira's JWT). */
  webhookHeaders: Record<string, string>;
}

/**
 * A project's tracker, connected with a real stand-in token, cards going to the account's first list,
 * and one card made there from the given edit suggestion.
 */
export async function trackerFixture(
  t: TestApp,
  input: { projectId: string; changeId: string; tracker: TrackerType },
): Promise<TrackerFixture> {
  const tracker = trackerFor(t.ctx.config, input.tracker)!;
  const { token, refreshToken, expiresAt } = await tracker.connect(await trackerGrant(t, input.tracker));
  const [container] = await tracker.destinations(token);
  const [list] = container!.lists;
  const destination = {
    containerId: container!.id,
    containerName: container!.name,
    listId: list!.id,
    listName: list!.name,
  };
  const made = await tracker.createCard(token, destination, { title: "Fixture", description: "" });
  const hookSecret =
    input.tracker === "trello" ? t.ctx.config.trackers.trello!.clientSecret : randomBytes(16).toString("hex");
  const integrationId = newId();
  const { db } = t.ctx.database;
  await db.insert(projectIntegrations).values({
    id: integrationId,
    projectId: input.projectId,
    type: input.tracker,
    config: { account: "Fixture", destination, autoCreate: false },
    secrets: trackerSecrets(t.ctx).seal({
      token,
      refreshToken,
      expiresAt,
      ...(input.tracker !== "trello" && { hookSecret }),
      // Jira reads the site from the webhook's id (no webhook is made at the stand-in for the fixture).
      ...(input.tracker === "jira" && { hookId: `${container!.id}/0` }),
    }),
  });
  const cardId = newId();
  await db.insert(trackerCards).values({
    id: cardId,
    projectId: input.projectId,
    tracker: input.tracker,
    subject: "edit",
    subjectId: input.changeId,
    externalId: made.id,
    url: made.url,
    status: "created",
  });
  return {
    integrationId,
    cardId,
    hookSecret,
    webhookUrl: `${inboundUrl(t.ctx, input.tracker, integrationId)}${input.tracker === "jira" ? `/${hookSecret}` : ""}`,
    destination,
    webhookHeaders:
      input.tracker === "jira"
        ? {
            authorization: `Bearer ${jiraWebhookToken(t.ctx.config.trackers.jira!.clientId, t.ctx.config.trackers.jira!.clientSecret)}`,
          }
        : {},
  };
}
