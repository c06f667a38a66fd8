/**
 * What the task-tracker stand-ins (Trello, ClickUp, GitHub, Asana, Jira) share, each speaking its own
 * service's dialect through it: form bodies, their pages' look, the OAuth authorize page with the person's
 * decision (back to the app's return URL), one-use authorization codes, the token endpoint's checks, access
 * and refresh tokens, and the test controls (`POST /_faults`; `GET`/`POST /_tokens`;
 * `GET`/`POST /_webhooks/{id}`).
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type ZodType, z } from "zod";
import { route } from "./route.ts";
import { escapeHtml, layout } from "./stripe/checkout-page.ts";
import { isStorableText } from "./text.ts";
import { type Faults, faultBody } from "./tracker-faults.ts";

/** What an OAuth tracker stand-in is given: where it is served, and the one OAuth app it knows. */
export interface TrackerAppOptions {
  appUrl: string;
  prefix: string;
  clientId: string;
  clientSecret: string;
}

/** Authorize pages post forms, and some token endpoints take them: parsed into a plain object. */
export function acceptForms(app: FastifyInstance) {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}

/** The pages' form styles, the primary button in the service's colour. */
export const pageStyle = (accent: string) => `<style>
label { display: block; margin: 0 0 4px; font-size: 14px; font-weight: 500; }
input[type=text] { width: 100%; margin: 0 0 16px; padding: 8px 12px; font: inherit; border: 1px solid #d4d4d8; border-radius: 8px; }
.actions { display: flex; gap: 8px; }
.actions button { flex: 1; padding: 10px 16px; font: inherit; border-radius: 8px; border: 1px solid #d4d4d8; background: #fff; cursor: pointer; }
.actions button.primary { background: ${accent}; border-color: ${accent}; color: #fff; }
</style>`;

/** A service's error page: "{service} — error", its eyebrow, a heading and the message as an alert. */
export const errorPage =
  (service: string, eyebrow = service, heading = "Invalid request") =>
  (message: string) =>
    layout(
      `${service} — error`,
      `<p class="eyebrow">${escapeHtml(eyebrow)} · Redline stand-in</p><h1>${escapeHtml(heading)}</h1><p class="alert" role="alert">${escapeHtml(message)}</p>`,
    );

/** The authorize request's parameters, carried through the page's form as hidden fields. */
export const hiddenFields = (params: Record<string, unknown>) =>
  Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(String(value))}">`,
    )
    .join("\n");

/** The authorize page's form: its name field's label, and the two decisions in the service's words. */
export interface DecisionForm {
  label: string;
  /** The input's id, when it is not the field's name. */
  id?: string;
  maxlength?: number;
  deny: string;
  allow: string;
}

/** The form, posting back to `action`: the request's hidden fields, the person's name and the decisions. */
const decisionForm = (action: string, hidden: string, field: string, value: string, form: DecisionForm) => {
  const id = form.id ?? field;
  return `<form method="post" action="${action}">${hidden}
<label for="${id}">${form.label}</label><input id="${id}" type="text" name="${field}" value="${value}" maxlength="${form.maxlength ?? 100}" required>
<div class="actions"><button type="submit" name="decision" value="deny">${form.deny}</button>
<button class="primary" type="submit" name="decision" value="allow">${form.allow}</button></div></form>`;
};

export interface AuthorizeFlow<Query extends Record<string, unknown>> {
  /** Where the page is (GET) and where its form posts the decision (POST), under the stand-in's prefix. */
  path: string;
  prefix: string;
  /** Named in the routes' summaries: "(embedded {service})". */
  service: string;
  query: ZodType<Query>;
  /** What is wrong with a parsed request (an unknown app, a return URL that is not one), or null. */
  problem: (query: Query) => string | null;
  /** The answer to a request that does not parse. */
  malformed: string;
  errorPage: (message: string) => string;
  /** The page, given the request, its parameters as hidden fields and the decision form (from `form`). */
  page: (query: Query, hidden: string, form: string) => string;
  /** The decision form, posting back to `path` (the page gets "" without it). */
  form?: DecisionForm;
  /**
   * The form's field naming the person (an account per name; default `name`), its default (`Test user`),
   * and what the service allows.
   */
  nameField?: string;
  defaultName?: string;
  validName?: (name: string) => boolean;
  /** Where the browser goes back to (default: the `redirect_uri` parameter). */
  returnUrl?: (query: Query) => string;
  /** Writes the refusal into the return URL (default: `error=access_denied` and the state in its query). */
  deny?: (back: URL, query: Query) => void;
  /** Writes the grant (a code, a token) into the return URL for the person named. */
  allow?: (back: URL, query: Query, name: string) => void;
  /** Or, for the code grant: the one-use code for the person named, written with the state. */
  code?: (query: Query, name: string) => string;
}

/** The state travels back in the return URL's query, as OAuth 2.0 says. */
export const withState = (back: URL, query: { state?: unknown }) => {
  if (typeof query.state === "string" && query.state) back.searchParams.set("state", query.state);
};

/** The authorize page, and the person's decision sending the browser back to the app's return URL. */
export function authorizeRoutes<Query extends Record<string, unknown>>(
  app: FastifyInstance,
  flow: AuthorizeFlow<Query>,
) {
  const { nameField = "name", defaultName = "Test user" } = flow;
  app.get(
    flow.path,
    route({ summary: `Allow an app access (embedded ${flow.service})`, action: "public" }),
    async (request, reply) => {
      const query = flow.query.safeParse(request.query);
      reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
      const problem = query.success ? flow.problem(query.data) : flow.malformed;
      if (problem || !query.success) return reply.status(400).send(flow.errorPage(problem ?? flow.malformed));
      const hidden = hiddenFields(query.data);
      const form = flow.form
        ? decisionForm(`${flow.prefix}${flow.path}`, hidden, nameField, defaultName, flow.form)
        : "";
      return flow.page(query.data, hidden, form);
    },
  );

  app.post(
    flow.path,
    route({ summary: `The person's decision (embedded ${flow.service})`, action: "public" }),
    async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, string>;
      const query = flow.query.safeParse(form);
      const name =
        String(form[nameField] ?? "")
          .trim()
          .slice(0, 100) || defaultName;
      if (!query.success || flow.problem(query.data) || !(flow.validName ?? isStorableText)(name))
        return reply.status(400).type("text/html; charset=utf-8").send(flow.errorPage("Invalid request."));
      const back = new URL(flow.returnUrl ? flow.returnUrl(query.data) : String(query.data.redirect_uri));
      if (form.decision !== "allow") {
        if (flow.deny) flow.deny(back, query.data);
        else {
          withState(back, query.data);
          back.searchParams.set("error", "access_denied");
        }
      } else if (flow.allow) flow.allow(back, query.data, name);
      else if (flow.code) {
        withState(back, query.data);
        back.searchParams.set("code", flow.code(query.data, name));
      }
      return reply.redirect(back.toString(), 302);
    },
  );
}

/** The usual check of an authorize request: this stand-in's app, and a return URL that parses. */
export const appAndReturnUrl =
  (clientId: string, message: string) => (query: { client_id: string; redirect_uri: string }) =>
    query.client_id !== clientId || !URL.canParse(query.redirect_uri) ? message : null;

/** Authorization codes: each works once, for ten minutes (and, when it was given one, one redirect URI). */
export class CodeStore<Grant extends object> {
  private readonly codes = new Map<string, Grant & { redirectUri?: string; expiresAt: number }>();
  constructor(private readonly make: () => string = () => randomBytes(16).toString("hex")) {}
  issue(grant: Grant & { redirectUri?: string }): string {
    const code = this.make();
    this.codes.set(code, { ...grant, expiresAt: Date.now() + 10 * 60_000 });
    return code;
  }
  /** The code's grant, spent now; null when unknown, used, expired or sent with another redirect URI. */
  take(code: unknown, redirectUri?: unknown): Grant | null {
    const key = String(code ?? "");
    const grant = this.codes.get(key);
    this.codes.delete(key);
    if (!grant || grant.expiresAt < Date.now()) return null;
    if (grant.redirectUri !== undefined && grant.redirectUri !== redirectUri) return null;
    return grant;
  }
}

/** A token request's parameters: the body's (form or JSON), and with `query` also the query string's. */
export const tokenParams = (request: FastifyRequest, query = false): Record<string, unknown> => ({
  ...(query ? (request.query as Record<string, unknown>) : {}),
  ...((request.body as Record<string, unknown>) ?? {}),
});

/** Whether a token request names the stand-in's one OAuth app, with its secret. */
export const isKnownClient = (
  params: Record<string, unknown>,
  client: { clientId: string; clientSecret: string },
) => params.client_id === client.clientId && params.client_secret === client.clientSecret;

/** An OAuth 2.0 error answer (RFC 6749 §5.2): `{ error, error_description }`. */
export const oauthError = (reply: FastifyReply, status: number, error: string, description: string) =>
  reply.status(status).send({ error, error_description: description });

/**
 * Access tokens (expiring) and refresh tokens of a service with the `refresh_token` grant, counting the
 * refreshes for tests.
 */
export class TokenGrants {
  readonly access = new Map<string, { subject: string; expiresAt: number }>();
  readonly refresh = new Map<string, string>();
  refreshes = 0;
  constructor(readonly seconds: number) {}
  /** A new access token for the subject, made by `make`. */
  grantAccess(subject: string, make: () => string): string {
    const token = make();
    this.access.set(token, { subject, expiresAt: Date.now() + this.seconds * 1000 });
    return token;
  }
  grantRefresh(subject: string, make: () => string): string {
    const token = make();
    this.refresh.set(token, subject);
    return token;
  }
  /** The subject of a live `Authorization: Bearer` token. */
  bearer(request: FastifyRequest): string | undefined {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    const grant = this.access.get(token);
    return grant && grant.expiresAt > Date.now() ? grant.subject : undefined;
  }
}

/**
/** A stand-in's webhooks as its test controls show them, each answer in the service's format. */
export interface WebhookControls {
  /** What `GET /_webhooks/{id}` answers for a webhook, or null when there is none (then 404 `missing`). */
  show: (id: string) => unknown;
  missing: unknown;
  /** `POST /_webhooks/{id}` `{ expiresAt }` (ms since the epoch) sets when the webhook expires. */
  expire?: (id: string, expiresAt: number) => void;
}

/**
 * The test controls: `POST /_faults` (the next API calls fail); with grants, `GET /_tokens` (how many
 * refreshes were answered) and `POST /_tokens` (`expire` every access token now; `revoke` every refresh
 * token); with webhooks, `GET /_webhooks/{id}` (whether it exists) and, when they expire, `POST` (when).
 */
export function testControls(
  app: FastifyInstance,
  controls: { service: string; faults: Faults; grants?: TokenGrants; webhooks?: WebhookControls },
) {
  const { service, faults, grants, webhooks } = controls;
  if (webhooks) webhookControls(app, service, webhooks);
  app.post(
    "/_faults",
    route({ summary: `Make the next API calls fail (embedded ${service}, for tests)`, action: "public" }),
    async (request, reply) => {
      const input = faultBody.safeParse(request.body);
      if (!input.success) return reply.status(400).send({ message: "status and times" });
      faults.set(input.data.status, input.data.times);
      return reply.status(204).send();
    },
  );
  if (!grants) return;
  app.get(
    "/_tokens",
    route({
      summary: `How many refresh grants were answered (embedded ${service}, for tests)`,
      action: "public",
    }),
    async () => ({ refreshes: grants.refreshes }),
  );
  app.post(
    "/_tokens",
    route({
      summary: `Expire every access token now, or revoke every refresh token (embedded ${service}, for tests)`,
      action: "public",
    }),
    async (request, reply: FastifyReply) => {
      const input = z.object({ action: z.enum(["expire", "revoke"]) }).safeParse(request.body);
      if (!input.success) return reply.status(400).send({ message: "action: expire or revoke" });
      for (const grant of grants.access.values()) grant.expiresAt = 0;
      if (input.data.action === "revoke") grants.refresh.clear();
      return reply.status(204).send();
    },
  );
}

function webhookControls(app: FastifyInstance, service: string, webhooks: WebhookControls) {
  const idOf = (request: FastifyRequest) => (request.params as { webhookId: string }).webhookId;
  const { expire } = webhooks;
  app.get(
    "/_webhooks/:webhookId",
    route({
      summary: `Whether a webhook exists${expire ? ", and until when" : ""} (embedded ${service}, for tests)`,
      action: "public",
    }),
    async (request, reply) => webhooks.show(idOf(request)) ?? reply.status(404).send(webhooks.missing),
  );
  if (!expire) return;
  app.post(
    "/_webhooks/:webhookId",
    route({
      summary: `Set when a webhook expires, as if time had passed (embedded ${service}, for tests)`,
      action: "public",
    }),
    async (request, reply) => {
      const id = idOf(request);
      const body = z.object({ expiresAt: z.number().int().min(0) }).safeParse(request.body);
      if (webhooks.show(id) === null) return reply.status(404).send(webhooks.missing);
      if (!body.success) return reply.status(400).send({ message: "expiresAt (ms since the epoch)" });
      expire(id, body.data.expiresAt);
      return webhooks.show(id);
    },
  );
}
