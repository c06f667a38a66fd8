/**
 * The embedded Jira Cloud stand-in (development and tests only; no JIRA_CLIENT_ID): Atlassian's two hosts
 * under one prefix — `/auth` for auth.atlassian.com (the OAuth 2.0 (3LO) authorize page, back to the
 * redirect URI with `code` and `state`; `POST /auth/oauth/token` with the `authorization_code` and
 * `refresh_token` grants, access tokens lasting an hour and refresh tokens rotating: each refresh answers a
 * new one and the spent one stops working) and `/api` for api.atlassian.com (`/oauth/token/accessible-
 * resources`, and a site's REST API v3 under `/ex/jira/{cloudId}/rest/api/3`: myself, project search with
 * issue types, issues (create, read, delete), transitions (To Do, In Progress, Done) and dynamic webhooks
 * (register with a `project = …` JQL filter, refresh, delete; expiring after 30 days)). Errors are Jira's
 * `{ errorMessages, errors }`. Each person gets a site with two projects. An issue has a page on its site
 * (`/s/{cloudId}/browse/{key}`) where one moves it to another status; every move and deletion is delivered
 * to the webhooks whose filter matches, as Jira delivers dynamic webhooks: JSON naming the issue and the
 * status change, with a JWT under the client secret in `Authorization` (no body signature). Test controls: `POST /_faults` (500/429/401 on API calls), `POST /_tokens`
 * (`expire` every access token now; `revoke` every refresh token; `GET` counts the refreshes),
 * `GET /_webhooks/{id}` (whether a webhook exists, and when it expires; `POST` sets when it expires). All in
 * memory.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";
import { escapeHtml, layout } from "../stripe/checkout-page.ts";
import { authedHandlers } from "../tracker-api.ts";
import { Faults } from "../tracker-faults.ts";
import {
  acceptForms,
  appAndReturnUrl,
  authorizeRoutes,
  CodeStore,
  isKnownClient,
  oauthError,
  pageStyle,
  errorPage as servicePage,
  TokenGrants,
  type TrackerAppOptions,
  testControls,
  tokenParams,
} from "../tracker-oauth.ts";
import { itemPageRoutes } from "../tracker-pages.ts";

export type JiraDevOptions = TrackerAppOptions;

type Category = "new" | "indeterminate" | "done";

interface Site {
  id: string;
  name: string;
}
interface Project {
  id: string;
  key: string;
  name: string;
  siteId: string;
}
interface Issue {
  id: string;
  key: string;
  siteId: string;
  projectId: string;
  issueTypeId: string;
  summary: string;
  description: unknown;
  status: Category;
}
interface Hook {
  id: number;
  siteId: string;
  url: string;
  projectRef: string;
  events: string[];
  expiresAt: number;
}

const ACCESS_TOKEN_SECONDS = 3600;
const WEBHOOK_DAYS = 30;
/** The workflow every project has: a status per category, and a transition to each. */
const STATUSES: Record<Category, { id: string; name: string; transition: string }> = {
  new: { id: "10000", name: "To Do", transition: "11" },
  indeterminate: { id: "3", name: "In Progress", transition: "21" },
  done: { id: "10001", name: "Done", transition: "31" },
};
const ISSUE_TYPES = [
  { id: "10001", name: "Task", subtask: false },
  { id: "10002", name: "Bug", subtask: false },
  { id: "10003", name: "Subtask", subtask: true },
];
const SCOPES = ["read:jira-work", "write:jira-work", "manage:jira-webhook"];

/** The `Authorization: Bearer` JWT Jira sends with a dynamic webhook to an OAuth 2.0 app (HS256, client secret). */
export function jiraWebhookToken(clientId: string, clientSecret: string, now = Date.now()): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const iat = Math.floor(now / 1000);
  const body = `${part({ alg: "HS256", typ: "JWT" })}.${part({ iss: clientId, iat, exp: iat + 180 })}`;
  return `${body}.${createHmac("sha256", clientSecret).update(body).digest("base64url")}`;
}

const authorizeQuery = z.object({
  audience: z.literal("api.atlassian.com"),
  client_id: z.string().max(200),
  scope: z.string().max(1000),
  redirect_uri: z.string().max(2000),
  state: z.string().max(2000),
  response_type: z.literal("code"),
  prompt: z.string().max(50).optional(),
});

const PAGE_STYLE = pageStyle("#0c66e4");
const errorPage = servicePage("Jira", "Atlassian", "Something's not right");

/** The text of an Atlassian Document Format body (a line per paragraph). */
function textOf(doc: unknown): string {
  const lines: string[] = [];
  const walk = (node: unknown, line: string[]): void => {
    if (!node || typeof node !== "object") return;
    const { type, text, content } = node as { type?: string; text?: string; content?: unknown[] };
    if (type === "text" && typeof text === "string") line.push(text);
    if (type === "paragraph") {
      const own: string[] = [];
      for (const child of content ?? []) walk(child, own);
      lines.push(own.join(""));
      return;
    }
    for (const child of content ?? []) walk(child, line);
  };
  walk(doc, []);
  return lines.join("\n");
}

export async function jiraDevRoutes(app: FastifyInstance, options: JiraDevOptions) {
  const { prefix } = options;
  const people = new Map<string, { accountId: string; name: string; siteId: string }>();
  const sites = new Map<string, Site>();
  const projects = new Map<string, Project>();
  const issues = new Map<string, Issue>();
  const hooks = new Map<number, Hook>();
  const codes = new CodeStore<{ accountId: string }>();
  const grants = new TokenGrants(ACCESS_TOKEN_SECONDS);
  const faults = new Faults();
  let nextId = 10_000;
  let nextHookId = 1;

  acceptForms(app);

  const jiraError = (reply: FastifyReply, status: number, message: string) =>
    reply.status(status).send({ errorMessages: [message], errors: {} });
  const siteUrl = (siteId: string) => `${options.appUrl}${prefix}/s/${siteId}`;

  /** The token's person, or an answer already sent (a fault, 401). */
  const personOf = (request: FastifyRequest, reply: FastifyReply) => {
    if (
      faults.answer(reply, (status) => ({
        errorMessages: [status === 429 ? "Rate limit exceeded." : "Internal server error."],
        errors: {},
      }))
    )
      return null;
    const accountId = grants.bearer(request);
    const person = accountId === undefined ? undefined : people.get(accountId);
    if (!person) {
      reply.status(401).send({ code: 401, message: "Unauthorized; scope does not match" });
      return null;
    }
    return person;
  };

  /** The person and the site named in the path (theirs only). */
  const siteOf = (request: FastifyRequest, reply: FastifyReply) => {
    const person = personOf(request, reply);
    if (!person) return null;
    const { cloudId } = request.params as { cloudId: string };
    if (cloudId !== person.siteId) {
      jiraError(reply, 404, "Site not found.");
      return null;
    }
    return { person, site: sites.get(cloudId)! };
  };

  const issueOf = (request: FastifyRequest, siteId: string) => {
    const { issueIdOrKey } = request.params as { issueIdOrKey: string };
    const issue = issues.get(issueIdOrKey) ?? [...issues.values()].find((i) => i.key === issueIdOrKey);
    return issue && issue.siteId === siteId ? issue : null;
  };

  /** The API's handlers: for the token's person, on their site, and for an issue on it (Jira's 404 when absent). */
  const forPerson = authedHandlers(personOf);
  const onSite = authedHandlers(siteOf);
  const withIssue = onSite.about(
    (request, found) => issueOf(request, found.site.id),
    (reply) => jiraError(reply, 404, "Issue does not exist or you do not have permission to see it."),
  );

  const presentIssue = (issue: Issue) => ({
    id: issue.id,
    key: issue.key,
    self: `${siteUrl(issue.siteId)}/rest/api/3/issue/${issue.id}`,
    fields: {
      summary: issue.summary,
      description: issue.description,
      project: { id: issue.projectId, key: projects.get(issue.projectId)?.key },
      issuetype: ISSUE_TYPES.find((type) => type.id === issue.issueTypeId),
      status: {
        id: STATUSES[issue.status].id,
        name: STATUSES[issue.status].name,
        statusCategory: { key: issue.status, name: STATUSES[issue.status].name },
      },
    },
  });

  /** Jira's dynamic webhook delivery to each live webhook whose JQL names the issue's project. */
  const deliver = async (issue: Issue, event: string, changelog?: unknown) => {
    const project = projects.get(issue.projectId)!;
    const matched = [...hooks.values()].filter(
      (hook) =>
        hook.siteId === issue.siteId &&
        hook.expiresAt > Date.now() &&
        hook.events.includes(event) &&
        (hook.projectRef === project.id || hook.projectRef === project.key),
    );
    await Promise.all(
      matched.map((hook) =>
        fetch(hook.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${jiraWebhookToken(options.clientId, options.clientSecret)}`,
          },
          body: JSON.stringify({
            timestamp: Date.now(),
            webhookEvent: event,
            issue_event_type_name: event === "jira:issue_deleted" ? "issue_deleted" : "issue_generic",
            issue: presentIssue(issue),
            ...(changelog !== undefined && { changelog }),
            matchedWebhookIds: [hook.id],
          }),
          signal: AbortSignal.timeout(10_000),
        }).catch(() => undefined),
      ),
    );
  };

  const move = async (issue: Issue, to: Category) => {
    if (issue.status === to) return;
    const from = issue.status;
    issue.status = to;
    await deliver(issue, "jira:issue_updated", {
      id: String(nextId++),
      items: [
        {
          field: "status",
          fieldtype: "jira",
          fieldId: "status",
          from: STATUSES[from].id,
          fromString: STATUSES[from].name,
          to: STATUSES[to].id,
          toString: STATUSES[to].name,
        },
      ],
    });
  };

  /** A new person gets a site with two projects. */
  const newPerson = (name: string) => {
    // A site's name is its subdomain (e.g. "ada-jira" for ada-jira.atlassian.net).
    const site: Site = { id: randomUUID(), name: name.toLowerCase().replace(/[^a-z0-9]+/g, "-") || "site" };
    const accountId = `712020:${randomUUID()}`;
    sites.set(site.id, site);
    for (const [key, projectName] of [
      ["WEB", "Website"],
      ["APP", "Mobile app"],
    ] as const) {
      const project = { id: String(nextId++), key, name: projectName, siteId: site.id };
      projects.set(project.id, project);
    }
    const person = { accountId, name, siteId: site.id };
    people.set(accountId, person);
    return person;
  };

  const grantTokens = (accountId: string) => {
    return {
      access_token: grants.grantAccess(accountId, () => `jira-at-${randomBytes(24).toString("hex")}`),
      refresh_token: grants.grantRefresh(accountId, () => `jira-rt-${randomBytes(24).toString("hex")}`),
      expires_in: ACCESS_TOKEN_SECONDS,
      scope: [...SCOPES, "offline_access"].join(" "),
      token_type: "Bearer",
    };
  };

  authorizeRoutes(app, {
    path: "/auth/authorize",
    prefix,
    service: "Atlassian OAuth 2.0",
    query: authorizeQuery,
    problem: appAndReturnUrl(
      options.clientId,
      "Invalid audience, client_id, redirect_uri, state or response_type.",
    ),
    malformed: "Invalid audience, client_id, redirect_uri, state or response_type.",
    errorPage,
    page: (query, _hidden, form) => {
      const scopes = query.scope
        .split(/\s+/)
        .filter(Boolean)
        .map((scope) => `<li>${escapeHtml(scope)}</li>`)
        .join("");
      return layout(
        "Jira — grant access",
        `${PAGE_STYLE}<p class="eyebrow">Atlassian · Redline stand-in</p><h1>Redline is requesting access to your Atlassian account</h1>
<ul>${scopes}</ul>
${form}`,
      );
    },
    form: { label: "Your Atlassian name", deny: "Cancel", allow: "Accept" },
    code: (query, name) => {
      const person = [...people.values()].find((p) => p.name === name) ?? newPerson(name);
      return codes.issue({ accountId: person.accountId, redirectUri: query.redirect_uri });
    },
  });

  app.post(
    "/auth/oauth/token",
    route({
      summary: "Exchange a code or a rotating refresh token for tokens (embedded Atlassian OAuth 2.0)",
      action: "public",
    }),
    async (request, reply) => {
      const params = tokenParams(request);
      if (!isKnownClient(params, options)) return oauthError(reply, 401, "access_denied", "Unauthorized");
      if (params.grant_type === "authorization_code") {
        const grant = codes.take(params.code, params.redirect_uri);
        if (!grant) return oauthError(reply, 403, "invalid_grant", "Invalid authorization code");
        return grantTokens(grant.accountId);
      }
      if (params.grant_type === "refresh_token") {
        const spent = String(params.refresh_token ?? "");
        const accountId = grants.refresh.get(spent);
        if (!accountId) return oauthError(reply, 403, "unauthorized_client", "refresh_token is invalid");
        // Rotation: the spent refresh token stops working.
        grants.refresh.delete(spent);
        grants.refreshes += 1;
        return grantTokens(accountId);
      }
      return oauthError(reply, 400, "unsupported_grant_type", "Unknown grant_type.");
    },
  );

  app.get(
    "/api/oauth/token/accessible-resources",
    route({ summary: "The sites a token may use (embedded Atlassian)", action: "public" }),
    forPerson(async (person) => {
      const site = sites.get(person.siteId)!;
      return [{ id: site.id, url: siteUrl(site.id), name: site.name, scopes: SCOPES, avatarUrl: "" }];
    }),
  );

  const rest = "/api/ex/jira/:cloudId/rest/api/3";

  app.get(
    `${rest}/myself`,
    route({ summary: "The token's user (embedded Jira)", action: "public" }),
    onSite(async (found) => {
      return { accountId: found.person.accountId, displayName: found.person.name, active: true };
    }),
  );

  app.get(
    `${rest}/project/search`,
    route({ summary: "The site's projects, with their issue types (embedded Jira)", action: "public" }),
    onSite(async (found, request) => {
      const query = request.query as { startAt?: string; maxResults?: string; expand?: string };
      const startAt = Math.max(0, Number(query.startAt ?? 0) || 0);
      const maxResults = Math.min(100, Math.max(1, Number(query.maxResults ?? 50) || 50));
      const all = [...projects.values()].filter((project) => project.siteId === found.site.id);
      const withTypes = (query.expand ?? "").split(",").includes("issueTypes");
      return {
        startAt,
        maxResults,
        total: all.length,
        isLast: startAt + maxResults >= all.length,
        values: all.slice(startAt, startAt + maxResults).map((project) => ({
          id: project.id,
          key: project.key,
          name: project.name,
          ...(withTypes && { issueTypes: ISSUE_TYPES }),
        })),
      };
    }),
  );

  const issueBody = z.object({
    fields: z.object({
      project: z.object({ id: z.string().max(64).optional(), key: z.string().max(64).optional() }),
      issuetype: z.object({ id: z.string().max(64) }),
      summary: z.string().min(1).max(255),
      description: z.unknown().optional(),
    }),
  });

  app.post(
    `${rest}/issue`,
    route({ summary: "Create an issue (embedded Jira)", action: "public" }),
    onSite(async (found, request, reply) => {
      const body = issueBody.safeParse(request.body);
      if (!body.success || /[\r\n]/.test(body.data.fields.summary))
        return reply.status(400).send({
          errorMessages: [],
          errors: { summary: "You must specify a summary of the issue (one line, at most 255 characters)." },
        });
      const { fields } = body.data;
      const project = [...projects.values()].find(
        (p) => p.siteId === found.site.id && (p.id === fields.project.id || p.key === fields.project.key),
      );
      if (!project)
        return reply
          .status(400)
          .send({ errorMessages: [], errors: { project: "valid project is required" } });
      const type = ISSUE_TYPES.find((t) => t.id === fields.issuetype.id && !t.subtask);
      if (!type)
        return reply
          .status(400)
          .send({ errorMessages: [], errors: { issuetype: "Specify a valid issue type" } });
      const number = [...issues.values()].filter((i) => i.projectId === project.id).length + 1;
      const issue: Issue = {
        id: String(nextId++),
        key: `${project.key}-${number}`,
        siteId: found.site.id,
        projectId: project.id,
        issueTypeId: type.id,
        summary: fields.summary,
        description: fields.description ?? null,
        status: "new",
      };
      issues.set(issue.id, issue);
      return reply.status(201).send({ id: issue.id, key: issue.key, self: presentIssue(issue).self });
    }),
  );

  app.get(
    `${rest}/issue/:issueIdOrKey`,
    route({ summary: "An issue (embedded Jira)", action: "public" }),
    withIssue(presentIssue),
  );

  app.delete(
    `${rest}/issue/:issueIdOrKey`,
    route({ summary: "Delete an issue (embedded Jira)", action: "public" }),
    withIssue(async (issue, _found, _request, reply) => {
      issues.delete(issue.id);
      await deliver(issue, "jira:issue_deleted");
      return reply.status(204).send();
    }),
  );

  const transitionsOf = (issue: Issue) =>
    (Object.keys(STATUSES) as Category[])
      .filter((category) => category !== issue.status)
      .map((category) => ({
        id: STATUSES[category].transition,
        name: STATUSES[category].name,
        to: {
          id: STATUSES[category].id,
          name: STATUSES[category].name,
          statusCategory: { key: category, name: STATUSES[category].name },
        },
      }));

  app.get(
    `${rest}/issue/:issueIdOrKey/transitions`,
    route({ summary: "The transitions an issue may take now (embedded Jira)", action: "public" }),
    withIssue(async (issue) => {
      return { transitions: transitionsOf(issue) };
    }),
  );

  app.post(
    `${rest}/issue/:issueIdOrKey/transitions`,
    route({ summary: "Move an issue through a transition (embedded Jira)", action: "public" }),
    withIssue(async (issue, _found, request, reply) => {
      const body = z.object({ transition: z.object({ id: z.string().max(20) }) }).safeParse(request.body);
      const to = body.success
        ? transitionsOf(issue).find((t) => t.id === body.data.transition.id)
        : undefined;
      if (!to) return jiraError(reply, 400, "Transition id is not valid for this issue.");
      await move(issue, to.to.statusCategory.key);
      return reply.status(204).send();
    }),
  );

  const webhookBody = z.object({
    url: z.url().max(2000),
    webhooks: z
      .array(
        z.object({
          jqlFilter: z.string().max(1000),
          events: z.array(z.string().max(100)).min(1).max(20),
          fieldIdsFilter: z.array(z.string().max(100)).optional(),
        }),
      )
      .min(1)
      .max(100),
  });

  app.post(
    `${rest}/webhook`,
    route({ summary: "Register dynamic webhooks (embedded Jira)", action: "public" }),
    onSite(async (found, request, reply) => {
      const body = webhookBody.safeParse(request.body);
      if (!body.success) return jiraError(reply, 400, "url and webhooks are required.");
      return {
        webhookRegistrationResult: body.data.webhooks.map((webhook) => {
          // Only what Redline asks for is understood here: `project = <id or key>`.
          const projectRef = /^project\s*=\s*"?([A-Za-z0-9]+)"?$/.exec(webhook.jqlFilter.trim())?.[1];
          if (!projectRef) return { errors: ["The JQL query is not supported by this stand-in."] };
          const hook: Hook = {
            id: nextHookId++,
            siteId: found.site.id,
            url: body.data.url,
            projectRef,
            events: webhook.events,
            expiresAt: Date.now() + WEBHOOK_DAYS * 86_400_000,
          };
          hooks.set(hook.id, hook);
          return { createdWebhookId: hook.id };
        }),
      };
    }),
  );

  const idsBody = z.object({ webhookIds: z.array(z.number().int()).min(1).max(100) });

  app.put(
    `${rest}/webhook/refresh`,
    route({ summary: "Extend dynamic webhooks by 30 days (embedded Jira)", action: "public" }),
    onSite(async (found, request, reply) => {
      const body = idsBody.safeParse(request.body);
      if (!body.success) return jiraError(reply, 400, "webhookIds are required.");
      const expiresAt = Date.now() + WEBHOOK_DAYS * 86_400_000;
      // Unknown ids (gone, another app's) are ignored, as at Jira.
      for (const id of body.data.webhookIds) {
        const hook = hooks.get(id);
        if (hook?.siteId === found.site.id && hook.expiresAt > Date.now()) hook.expiresAt = expiresAt;
      }
      return { expirationDate: new Date(expiresAt).toISOString() };
    }),
  );

  app.delete(
    `${rest}/webhook`,
    route({ summary: "Delete dynamic webhooks (embedded Jira)", action: "public" }),
    onSite(async (found, request, reply) => {
      const body = idsBody.safeParse(request.body);
      if (!body.success) return jiraError(reply, 400, "webhookIds are required.");
      for (const id of body.data.webhookIds) if (hooks.get(id)?.siteId === found.site.id) hooks.delete(id);
      return reply.status(202).send();
    }),
  );

  const pageIssue = (request: FastifyRequest) => {
    const { cloudId, key } = request.params as { cloudId: string; key: string };
    return [...issues.values()].find((issue) => issue.siteId === cloudId && issue.key === key) ?? null;
  };

  itemPageRoutes(app, {
    path: "/s/:cloudId/browse/:key",
    summaries: {
      page: "An issue's page on its site (embedded Jira)",
      act: "Move an issue from its page, as a person (embedded Jira)",
    },
    find: pageIssue,
    missing: { page: errorPage("This issue can't be found."), text: "Issue not found." },
    page: (issue) => {
      const project = projects.get(issue.projectId)!;
      const buttons = transitionsOf(issue)
        .map(
          (t) =>
            `<button${t.to.statusCategory.key === "done" ? ' class="primary"' : ""} type="submit" name="status" value="${t.to.statusCategory.key}">${escapeHtml(t.name)}</button>`,
        )
        .join("");
      return layout(
        `[${issue.key}] ${issue.summary} - Jira`,
        `${PAGE_STYLE}<p class="eyebrow">Jira · ${escapeHtml(project.name)} · ${escapeHtml(issue.key)}</p>
<h1>${escapeHtml(issue.summary)}</h1><p role="status">Status: ${escapeHtml(STATUSES[issue.status].name)}</p>
<pre style="white-space: pre-wrap; overflow-wrap: anywhere">${escapeHtml(textOf(issue.description))}</pre>
<form method="post" action="${prefix}/s/${issue.siteId}/browse/${issue.key}" class="actions" aria-label="Move to">${buttons}</form>`,
      );
    },
    act: async (issue, form) => {
      const status = String(form.status ?? "");
      if (status === "new" || status === "indeterminate" || status === "done") await move(issue, status);
    },
    url: (issue) => `${prefix}/s/${issue.siteId}/browse/${issue.key}`,
  });

  const hookOf = (id: string) => hooks.get(Number(id));
  testControls(app, {
    service: "Jira",
    faults,
    grants,
    webhooks: {
      show: (id) => {
        const hook = hookOf(id);
        return hook ? { data: { exists: true, expiresAt: hook.expiresAt } } : null;
      },
      missing: { errorMessages: ["Webhook not found."], errors: {} },
      expire: (id, expiresAt) => {
        const hook = hookOf(id);
        if (hook) hook.expiresAt = expiresAt;
      },
    },
  });
}
