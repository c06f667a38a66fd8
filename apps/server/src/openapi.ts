/**
 * The API's OpenAPI 3.1 document, served at GET /api/openapi.json.
 *
 * The routes are the ones Fastify actually registered (collected by app.ts's onRoute hook); this
 * file adds what a reader needs beyond method and path: a summary per route and the zod schemas the
 * handlers parse bodies and queries with (converted by zod's own `toJSONSchema`). openapi.test.ts
 * fails when a registered /api route has no entry here or an entry names a route that is gone, so
 * the document cannot drift from the server.
 */
import {
  addMemberSchema,
  addPageSchema,
  approverSchema,
  createCommentSchema,
  createProjectSchema,
  deleteChangesSchema,
  editEntrySchema,
  listNotificationsQuerySchema,
  markAllSeenSchema,
  pageApprovalSchema,
  photoUploadSchema,
  profileUpdateSchema,
  projectListQuerySchema,
  recaptureSchema,
  replySchema,
  saveChangesSchema,
  sharingUpdateSchema,
  similarPagesQuerySchema,
  transferProjectSchema,
  updateAllPagesSchema,
  updateChangeSchema,
  updateCommentSchema,
  updateMemberSchema,
  updateNotificationSchema,
  updatePageSchema,
  updateProjectSchema,
  updateVersionSchema,
} from "@redline/shared";
import { toJSONSchema, type ZodType } from "zod";

interface RouteDoc {
  summary: string;
  /** JSON request body. */
  body?: ZodType;
  /** Query string (an object schema: each property is one parameter). */
  query?: ZodType;
  /** multipart/form-data with one `file` field. */
  upload?: true;
  /** Open to anyone (no session cookie needed). */
  public?: true;
}

/** Every /api route, keyed "METHOD /path" exactly as registered. */
export const ROUTE_DOCS: Record<string, RouteDoc> = {
  "GET /api/health": { summary: "Liveness and database check", public: true },
  "GET /api/config": {
    summary: "Public configuration the web app needs (content origin, mailbox)",
    public: true,
  },
  "GET /api/openapi.json": { summary: "This document", public: true },
  "GET /api/realtime": {
    summary: "WebSocket: project rooms (comments, changes, pages) and the user's own notifications",
  },
  "GET /api/me": { summary: "The signed-in user" },
  "PATCH /api/me": { summary: "Update name, e-mail preferences, sound", body: profileUpdateSchema },
  "POST /api/me/photo": { summary: "Set the profile photo (data URL)", body: photoUploadSchema },
  "GET /api/projects": { summary: "List projects", query: projectListQuerySchema },
  "POST /api/projects": { summary: "Create a project", body: createProjectSchema },
  "GET /api/projects/:projectId": { summary: "A project with its pages and versions" },
  "PATCH /api/projects/:projectId": {
    summary: "Rename, archive or unarchive a project",
    body: updateProjectSchema,
  },
  "DELETE /api/projects/:projectId": { summary: "Delete a project (owner)" },
  "POST /api/projects/:projectId/thumbnail": {
    summary: "Set the project thumbnail",
    body: photoUploadSchema,
  },
  "GET /api/projects/:projectId/members": { summary: "People of a project and their access" },
  "POST /api/projects/:projectId/members": {
    summary: "Share the project with someone",
    body: addMemberSchema,
  },
  "PATCH /api/projects/:projectId/members/:memberId": {
    summary: "Change someone's access",
    body: updateMemberSchema,
  },
  "DELETE /api/projects/:projectId/members/:memberId": { summary: "Remove someone (or leave)" },
  "POST /api/projects/:projectId/transfer": {
    summary: "Make someone else the owner",
    body: transferProjectSchema,
  },
  "PUT /api/projects/:projectId/approvers/:userId": {
    summary: "Make or unmake an approver",
    body: approverSchema,
  },
  "PATCH /api/projects/:projectId/sharing": { summary: "Public link settings", body: sharingUpdateSchema },
  "POST /api/projects/:projectId/pages": {
    summary: "Add pages by URL (captured in the background)",
    body: addPageSchema,
  },
  "POST /api/projects/:projectId/uploads": { summary: "Add an image or PDF page", upload: true },
  "POST /api/projects/:projectId/update-all": {
    summary: "Re-capture every page that may be updated",
    body: updateAllPagesSchema,
  },
  "POST /api/projects/:projectId/attachments": { summary: "Upload a comment attachment", upload: true },
  "GET /api/projects/:projectId/attachments/:sha": { summary: "Download a comment attachment" },
  "GET /api/similar-pages": {
    summary: "Pages a URL links to, for adding several at once",
    query: similarPagesQuerySchema,
  },
  "PATCH /api/pages/:pageId": { summary: "Rename or archive a page", body: updatePageSchema },
  "PUT /api/pages/:pageId/approval": { summary: "Approve or unapprove a page", body: pageApprovalSchema },
  "DELETE /api/pages/:pageId": { summary: "Delete a page" },
  "POST /api/pages/:pageId/versions": {
    summary: "New version: re-capture (JSON) or a new image (multipart)",
    body: recaptureSchema,
  },
  "GET /api/versions/:versionId": { summary: "A version and its capture status" },
  "GET /api/versions/:versionId/view": { summary: "Where to load the version's content (signed URLs)" },
  "PATCH /api/versions/:versionId": { summary: "Rename a version", body: updateVersionSchema },
  "DELETE /api/versions/:versionId": { summary: "Delete a version" },
  "GET /api/versions/:versionId/comments": { summary: "Comments of a version with their threads" },
  "POST /api/versions/:versionId/comments": { summary: "Pin a new comment", body: createCommentSchema },
  "POST /api/versions/:versionId/comments/copy-unresolved": {
    summary: "Copy the previous version's unresolved comments",
  },
  "POST /api/comments/:commentId/replies": { summary: "Reply to a comment", body: replySchema },
  "PATCH /api/comments/:commentId": {
    summary: "Resolve, reopen, move the pin or save its anchoring",
    body: updateCommentSchema,
  },
  "PATCH /api/comments/:commentId/entries/:entryId": {
    summary: "Edit one's own reply",
    body: editEntrySchema,
  },
  "DELETE /api/comments/:commentId/entries/:entryId": {
    summary: "Delete a reply (the first one deletes the comment)",
  },
  "GET /api/versions/:versionId/changes": { summary: "Suggested edits of a version" },
  "POST /api/versions/:versionId/changes": {
    summary: "Save suggested edits (merged per element)",
    body: saveChangesSchema,
  },
  "DELETE /api/versions/:versionId/changes": { summary: "Delete suggested edits", body: deleteChangesSchema },
  "PATCH /api/changes/:changeId": {
    summary: "Hide, show, resolve or reopen an edit",
    body: updateChangeSchema,
  },
  "GET /api/versions/:versionId/changes.css": { summary: "The unresolved style edits as a CSS patch" },
  "POST /api/versions/:versionId/changes/images": { summary: "Upload a replacement image", upload: true },
  "GET /api/notifications": {
    summary: "The user's notifications, newest first",
    query: listNotificationsQuerySchema,
  },
  "GET /api/notifications/counts": { summary: "Unseen and not-yet-notified counts" },
  "PATCH /api/notifications/:notificationId": {
    summary: "Mark seen or unseen",
    body: updateNotificationSchema,
  },
  "POST /api/notifications/seen": {
    summary: "Clear all (mark every notification seen)",
    body: markAllSeenSchema,
  },
  "POST /api/notifications/notified": { summary: "The panel was opened (mark all notified)" },
  "GET /api/share/:projectId": { summary: "A project through its public link", public: true },
  "GET /api/share/:projectId/versions/:versionId/view": {
    summary: "A version through the public link",
    public: true,
  },
  "POST /api/share/:projectId/join": { summary: "Join a project from its link (signed in)" },
  "GET /api/share/:projectId/versions/:versionId/comments": {
    summary: "Comments through the public link",
    public: true,
  },
  "POST /api/share/:projectId/versions/:versionId/comments": {
    summary: "Comment as a guest (when the link allows it)",
    body: createCommentSchema,
    public: true,
  },
  "POST /api/share/:projectId/comments/:commentId/replies": {
    summary: "Reply as a guest (when the link allows it)",
    body: replySchema,
    public: true,
  },
  "GET /api/share/:projectId/versions/:versionId/changes": {
    summary: "Suggested edits through the public link (when shown)",
    public: true,
  },
  "GET /api/dev/mailbox": { summary: "The embedded outbox (development only)", public: true },
};

/** Routes served by the auth library under one wildcard; documented as a group. */
const AUTH_PREFIX = "/api/auth/";

export interface RegisteredRoute {
  method: string;
  url: string;
}

const jsonSchema = (schema: ZodType) =>
  toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;

/** "/api/pages/:pageId" → "/api/pages/{pageId}" and its path parameters. */
function openApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path, params };
}

export function openApiDocument(routes: RegisteredRoute[], info: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, url } of routes) {
    if (!url.startsWith("/api/") || url.startsWith(AUTH_PREFIX)) continue;
    const doc = ROUTE_DOCS[`${method} ${url}`];
    const { path, params } = openApiPath(url);
    const parameters: unknown[] = params.map((name) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    if (doc?.query) {
      const schema = jsonSchema(doc.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        parameters.push({
          name,
          in: "query",
          required: schema.required?.includes(name) ?? false,
          schema: property,
        });
    }
    const operation: Record<string, unknown> = {
      summary: doc?.summary ?? `${method} ${url}`,
      tags: [url.split("/")[2]],
      ...(parameters.length ? { parameters } : {}),
      ...(doc?.public ? { security: [] } : {}),
      responses: {
        "200": { description: "Success: `{ data }`" },
        "400": { description: "Invalid input: `{ error, code, message }`; nothing changed" },
        "401": { description: "Not signed in" },
        "403": { description: "Signed in, but not allowed" },
        "404": { description: "Not found, or not visible to this user" },
      },
    };
    if (doc?.body)
      operation.requestBody = {
        required: false,
        content: { "application/json": { schema: jsonSchema(doc.body) } },
      };
    if (doc?.upload)
      operation.requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { type: "object", properties: { file: { type: "string", format: "binary" } } },
          },
        },
      };
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = operation;
  }
  paths[`${AUTH_PREFIX}{action}`] = {
    post: {
      summary: "Sign up, sign in, sign out, verify e-mail, reset password (better-auth)",
      tags: ["auth"],
      security: [],
      parameters: [{ name: "action", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": { description: "See https://www.better-auth.com/docs/concepts/api" } },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Redline API",
      version: info.version,
      description:
        "Every state-changing call must come from the app's own origin (CSRF check). Errors are " +
        "`{ error, code, message }` with the matching status.",
      license: { name: "AGPL-3.0-only", identifier: "AGPL-3.0-only" },
    },
    servers: [{ url: info.serverUrl }],
    components: {
      securitySchemes: { session: { type: "apiKey", in: "cookie", name: "better-auth.session_token" } },
    },
    security: [{ session: [] }],
    paths,
  };
}
