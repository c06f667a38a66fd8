/**
 * The embedded Asana stand-in (development and tests only; no ASANA_CLIENT_ID): Asana at its paths under
 * one prefix, with what the app calls — the OAuth authorize page (`/-/oauth_authorize`, back to the
 * redirect URI with `code` and `state`) and `POST /-/oauth_token` (the `authorization_code` and
 * `refresh_token` grants; access tokens expire after an hour), and under `/api/1.0` the user, workspaces
 * and their projects, tasks (create, read, complete/reopen, delete) and webhooks, in Asana's envelope
 * (`{ data }`, errors `{ errors: [{ message }] }`). A webhook is made as Asana makes one: the stand-in
 * POSTs an `X-Hook-Secret` to the target and answers 201 only once the target echoed it; afterwards each
 * change of a task's `completed` in the webhook's project is delivered as Asana's event (which does not
 * carry the new value), signed `X-Hook-Signature` = hex HMAC-SHA256 of the body under that secret. A task
 * has a page (its `permalink_url`) where one completes or reopens it. Test controls: `POST /_faults`
 * (500/429), `POST /_tokens` (`expire` every access token now; `revoke` every grant; `GET` counts the
 * refreshes), `GET /_webhooks/{gid}` (whether a webhook exists). All in memory.
 */
import { createHmac, randomBytes } from "node:crypto";
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
import { itemPageRoutes, toggleForm } from "../tracker-pages.ts";

export type AsanaDevOptions = TrackerAppOptions;

interface User {
  gid: string;
  name: string;
  workspaceGid: string;
}
interface Task {
  gid: string;
  name: string;
  notes: string;
  projectGid: string;
  workspaceGid: string;
  completed: boolean;
}
interface Hook {
  gid: string;
  projectGid: string;
  target: string;
  secret: string;
}

const ACCESS_TOKEN_SECONDS = 3600;
const gid = () => String(1_200_000_000_000_000n + BigInt(`0x${randomBytes(6).toString("hex")}`));

export function asanaSignature(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

const authorizeQuery = z.object({
  client_id: z.string().max(200),
  redirect_uri: z.string().max(2000),
  response_type: z.literal("code"),
  state: z.string().max(2000).optional(),
});

const PAGE_STYLE = pageStyle("#f06a6a");
const errorPage = servicePage("Asana");

/** Asana's JSON bodies are `{ data: {...} }`. */
const dataOf = (body: unknown): unknown =>
  body && typeof body === "object" && "data" in body ? (body as { data: unknown }).data : undefined;

export async function asanaDevRoutes(app: FastifyInstance, options: AsanaDevOptions) {
  const { prefix } = options;
  const users = new Map<string, User>();
  const codes = new CodeStore<{ userGid: string }>();
  const grants = new TokenGrants(ACCESS_TOKEN_SECONDS);
  const workspaces = new Map<string, { gid: string; name: string }>();
  const projects = new Map<string, { gid: string; name: string; workspaceGid: string }>();
  const tasks = new Map<string, Task>();
  const hooks = new Map<string, Hook>();
  const faults = new Faults();

  acceptForms(app);

  const apiError = (reply: FastifyReply, status: number, message: string) =>
    reply.status(status).send({ errors: [{ message }] });

  const userOf = (request: FastifyRequest, reply: FastifyReply): User | null => {
    if (
      faults.answer(reply, (status) => ({
        errors: [{ message: status === 429 ? "Rate limit exceeded" : "Server Error" }],
      }))
    )
      return null;
    const userGid = grants.bearer(request);
    const user = userGid === undefined ? undefined : users.get(userGid);
    if (!user) {
      apiError(reply, 401, "Not Authorized");
      return null;
    }
    return user;
  };
  /** The API's handlers: for the token's user, and for a task of theirs (Asana's 404 when absent). */
  const authed = authedHandlers(userOf);

  const taskUrl = (task: Task) => `${options.appUrl}${prefix}/0/${task.projectGid}/${task.gid}`;
  const presentTask = (task: Task) => ({
    gid: task.gid,
    resource_type: "task",
    resource_subtype: "default_task",
    name: task.name,
    notes: task.notes,
    completed: task.completed,
    projects: [{ gid: task.projectGid, resource_type: "project", name: projects.get(task.projectGid)?.name }],
    workspace: { gid: task.workspaceGid, resource_type: "workspace" },
    permalink_url: taskUrl(task),
  });

  /** Asana's event for a task whose `completed` changed: what changed, not the new value. */
  const setCompleted = async (task: Task, completed: boolean, userGid: string) => {
    if (task.completed === completed) return;
    task.completed = completed;
    const body = JSON.stringify({
      events: [
        {
          user: { gid: userGid, resource_type: "user" },
          created_at: new Date().toISOString(),
          action: "changed",
          resource: { gid: task.gid, resource_type: "task", resource_subtype: "default_task" },
          parent: null,
          change: { field: "completed", action: "changed" },
        },
      ],
    });
    await Promise.all(
      [...hooks.values()]
        .filter((hook) => hook.projectGid === task.projectGid)
        .map((hook) =>
          fetch(hook.target, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-hook-signature": asanaSignature(hook.secret, body),
            },
            body,
            signal: AbortSignal.timeout(10_000),
          }).catch(() => undefined),
        ),
    );
  };

  /** A new user gets a workspace with two projects. */
  const newUser = (name: string): User => {
    const workspace = { gid: gid(), name: `${name}'s Workspace` };
    workspaces.set(workspace.gid, workspace);
    for (const project of ["Website feedback", "Bugs"]) {
      const made = { gid: gid(), name: project, workspaceGid: workspace.gid };
      projects.set(made.gid, made);
    }
    const user = { gid: gid(), name, workspaceGid: workspace.gid };
    users.set(user.gid, user);
    return user;
  };

  const issue = (userGid: string) =>
    grants.grantAccess(userGid, () => `2/${userGid}/${randomBytes(20).toString("hex")}`);

  authorizeRoutes(app, {
    path: "/-/oauth_authorize",
    prefix,
    service: "Asana",
    query: authorizeQuery,
    problem: appAndReturnUrl(options.clientId, "Invalid client_id, redirect_uri or response_type."),
    malformed: "Invalid client_id, redirect_uri or response_type.",
    errorPage,
    page: (_query, _hidden, form) =>
      layout(
        "Asana — grant permission",
        `${PAGE_STYLE}<p class="eyebrow">Asana · Redline stand-in</p><h1>Redline would like to access your Asana account</h1>
${form}`,
      ),
    form: { label: "Your Asana name", deny: "Deny", allow: "Allow" },
    code: (query, name) => {
      const user = [...users.values()].find((u) => u.name === name) ?? newUser(name);
      return codes.issue({ userGid: user.gid, redirectUri: query.redirect_uri });
    },
  });

  app.post(
    "/-/oauth_token",
    route({
      summary: "Exchange a code or a refresh token for an access token (embedded Asana)",
      action: "public",
    }),
    async (request, reply) => {
      const params = tokenParams(request);
      if (!isKnownClient(params, options))
        return oauthError(reply, 401, "invalid_client", "The client credentials are not valid.");
      let userGid: string | undefined;
      let refreshToken: string | undefined;
      if (params.grant_type === "authorization_code") {
        const grant = codes.take(params.code, params.redirect_uri);
        if (!grant) return oauthError(reply, 400, "invalid_grant", "The code is not valid.");
        userGid = grant.userGid;
        refreshToken = grants.grantRefresh(userGid, () => `2/${userGid}/${randomBytes(24).toString("hex")}`);
      } else if (params.grant_type === "refresh_token") {
        userGid = grants.refresh.get(String(params.refresh_token ?? ""));
        if (!userGid) return oauthError(reply, 400, "invalid_grant", "The refresh token is not valid.");
        grants.refreshes += 1;
      } else return oauthError(reply, 400, "unsupported_grant_type", "Unknown grant_type.");
      const user = users.get(userGid)!;
      return {
        access_token: issue(userGid),
        token_type: "bearer",
        expires_in: ACCESS_TOKEN_SECONDS,
        data: { id: user.gid, gid: user.gid, name: user.name, email: `${user.gid}@asana.example` },
        ...(refreshToken && { refresh_token: refreshToken }),
      };
    },
  );

  const api = "/api/1.0";

  app.get(
    `${api}/users/me`,
    route({ summary: "The token's user (embedded Asana)", action: "public" }),
    authed(async (user) => {
      const workspace = workspaces.get(user.workspaceGid)!;
      return {
        data: {
          gid: user.gid,
          resource_type: "user",
          name: user.name,
          email: `${user.gid}@asana.example`,
          workspaces: [{ gid: workspace.gid, resource_type: "workspace", name: workspace.name }],
        },
      };
    }),
  );

  app.get(
    `${api}/workspaces`,
    route({ summary: "The user's workspaces (embedded Asana)", action: "public" }),
    authed(async (user) => {
      const workspace = workspaces.get(user.workspaceGid)!;
      return {
        data: [{ gid: workspace.gid, resource_type: "workspace", name: workspace.name }],
        next_page: null,
      };
    }),
  );

  app.get(
    `${api}/workspaces/:workspaceGid/projects`,
    route({ summary: "A workspace's projects (embedded Asana)", action: "public" }),
    authed(async (user, request, reply) => {
      const { workspaceGid } = request.params as { workspaceGid: string };
      if (workspaceGid !== user.workspaceGid) return apiError(reply, 403, "Forbidden");
      return {
        data: [...projects.values()]
          .filter((project) => project.workspaceGid === workspaceGid)
          .map((project) => ({ gid: project.gid, resource_type: "project", name: project.name })),
        next_page: null,
      };
    }),
  );

  const taskBody = z.object({
    name: z.string().min(1).max(16384),
    notes: z.string().max(65536).optional(),
    projects: z.array(z.string().max(64)).length(1),
  });

  app.post(
    `${api}/tasks`,
    route({ summary: "Create a task in a project (embedded Asana)", action: "public" }),
    authed(async (user, request, reply) => {
      const body = taskBody.safeParse(dataOf(request.body));
      if (!body.success) return apiError(reply, 400, "name: Missing input; projects: one project");
      const project = projects.get(body.data.projects[0]!);
      if (!project || project.workspaceGid !== user.workspaceGid)
        return apiError(reply, 404, "projects: Not a recognized ID");
      const task: Task = {
        gid: gid(),
        name: body.data.name,
        notes: body.data.notes ?? "",
        projectGid: project.gid,
        workspaceGid: project.workspaceGid,
        completed: false,
      };
      tasks.set(task.gid, task);
      return reply.status(201).send({ data: presentTask(task) });
    }),
  );

  const taskOf = (request: FastifyRequest, user: User) => {
    const task = tasks.get((request.params as { taskGid: string }).taskGid);
    return task && task.workspaceGid === user.workspaceGid ? task : null;
  };
  const withTask = authed.about(taskOf, (reply) => apiError(reply, 404, "task: Unknown object"));

  app.get(
    `${api}/tasks/:taskGid`,
    route({ summary: "A task (embedded Asana)", action: "public" }),
    withTask(async (task) => {
      return { data: presentTask(task) };
    }),
  );

  app.put(
    `${api}/tasks/:taskGid`,
    route({ summary: "Complete or reopen a task (embedded Asana)", action: "public" }),
    withTask(async (task, user, request, reply) => {
      const body = z
        .object({ completed: z.boolean().optional(), name: z.string().min(1).max(16384).optional() })
        .safeParse(dataOf(request.body));
      if (!body.success) return apiError(reply, 400, "completed: Not a boolean");
      if (body.data.name !== undefined) task.name = body.data.name;
      if (body.data.completed !== undefined) await setCompleted(task, body.data.completed, user.gid);
      return { data: presentTask(task) };
    }),
  );

  app.delete(
    `${api}/tasks/:taskGid`,
    route({ summary: "Delete a task (embedded Asana)", action: "public" }),
    withTask(async (task) => {
      tasks.delete(task.gid);
      return { data: {} };
    }),
  );

  app.post(
    `${api}/webhooks`,
    route({ summary: "Establish a webhook, with its handshake (embedded Asana)", action: "public" }),
    authed(async (user, request, reply) => {
      const body = z
        .object({
          resource: z.string().max(64),
          target: z.url().max(2000),
          filters: z
            .array(
              z.object({
                resource_type: z.string().max(100),
                action: z.string().max(100).optional(),
                fields: z.array(z.string().max(100)).optional(),
              }),
            )
            .max(50)
            .optional(),
        })
        .safeParse(dataOf(request.body));
      if (!body.success) return apiError(reply, 400, "resource, target: Missing input");
      const project = projects.get(body.data.resource);
      if (!project || project.workspaceGid !== user.workspaceGid)
        return apiError(reply, 404, "resource: Not a recognized ID");
      // The handshake: the target must echo the secret before the webhook exists.
      const secret = randomBytes(32).toString("hex");
      const echoed = await fetch(body.data.target, {
        method: "POST",
        headers: { "x-hook-secret": secret },
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      if (!echoed || ![200, 204].includes(echoed.status) || echoed.headers.get("x-hook-secret") !== secret)
        return apiError(
          reply,
          400,
          "The remote server did not respond with the handshake secret. Make sure it echoes X-Hook-Secret.",
        );
      const hook: Hook = { gid: gid(), projectGid: project.gid, target: body.data.target, secret };
      hooks.set(hook.gid, hook);
      return reply.status(201).send({
        data: {
          gid: hook.gid,
          resource_type: "webhook",
          active: true,
          resource: { gid: project.gid, resource_type: "project", name: project.name },
          target: hook.target,
          filters: body.data.filters ?? [],
        },
      });
    }),
  );

  app.delete(
    `${api}/webhooks/:webhookGid`,
    route({ summary: "Delete a webhook (embedded Asana)", action: "public" }),
    authed(async (user, request, reply) => {
      const hook = hooks.get((request.params as { webhookGid: string }).webhookGid);
      if (!hook || projects.get(hook.projectGid)?.workspaceGid !== user.workspaceGid)
        return apiError(reply, 404, "webhook: Unknown object");
      hooks.delete(hook.gid);
      return { data: {} };
    }),
  );

  const taskPageUrl = (task: Task) => `${prefix}/0/${task.projectGid}/${task.gid}`;
  itemPageRoutes(app, {
    path: "/0/:projectGid/:taskGid",
    summaries: {
      page: "A task's page (embedded Asana)",
      act: "Complete or reopen a task from its page, as a person (embedded Asana)",
    },
    find: (request) => tasks.get((request.params as { taskGid: string }).taskGid),
    missing: { page: errorPage("Task not found."), text: "Task not found." },
    page: (task) =>
      layout(
        `${task.name} - Asana`,
        `${PAGE_STYLE}<p class="eyebrow">Asana · ${escapeHtml(projects.get(task.projectGid)?.name ?? "")}</p>
<h1>${escapeHtml(task.name)}</h1><p role="status">${task.completed ? "Completed" : "Incomplete"}</p>
<pre style="white-space: pre-wrap">${escapeHtml(task.notes)}</pre>
${toggleForm(taskPageUrl(task), task.completed, "completed", ["false", "Mark incomplete"], ["true", "Mark complete"])}`,
      ),
    act: async (task, form) => {
      const completed = String(form.completed ?? "");
      const person = [...users.values()].find((u) => u.workspaceGid === task.workspaceGid);
      if (completed === "true" || completed === "false")
        await setCompleted(task, completed === "true", person?.gid ?? "0");
    },
    url: taskPageUrl,
  });

  testControls(app, {
    service: "Asana",
    faults,
    grants,
    // Whether a webhook is set up now (for tests: the app's disconnect deletes it).
    webhooks: {
      show: (gid) => (hooks.has(gid) ? { data: { exists: true } } : null),
      missing: { errors: [{ message: "webhook: Unknown object" }] },
    },
  });
}
