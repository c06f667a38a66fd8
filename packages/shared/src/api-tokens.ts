import { z } from "zod";

/**
 * Public API tokens (Account Settings → API tokens): a person's own key for scripts and agents, sent as
 * `Authorization: Bearer rl_…`. A read token may only read (GET); a read-write token may also write, but
 * no token reaches billing, account deletion or token management — those need the person signed in.
 */
export const API_TOKEN_SCOPES = ["read", "read-write"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: "Read only",
  "read-write": "Read and write",
};
/** Days until a new token expires; null never. */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365, null] as const;
export const MAX_API_TOKEN_NAME_LENGTH = 100;
/** Tokens one person may hold at once. */
export const MAX_API_TOKENS = 50;
/** Every token starts with this, so secret scanners and people can tell what it is. */
export const API_TOKEN_PREFIX = "rl_";

export const apiTokenCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(MAX_API_TOKEN_NAME_LENGTH),
    scope: z.enum(API_TOKEN_SCOPES),
    expiresInDays: z
      .union([z.literal(7), z.literal(30), z.literal(90), z.literal(365), z.null()])
      .default(90),
  })
  .strict();
export type ApiTokenCreate = z.input<typeof apiTokenCreateSchema>;

export const apiTokenSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  /** "extension": the browser extension's credential (signing out of that session ends it). */
  kind: z.enum(["api", "extension"]),
  /** The first characters of the secret, to recognise it ("rl_3f9a…"). */
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to creating a token: the secret itself, shown this once. */
export const apiTokenCreatedSchema = z.strictObject({ token: apiTokenSchema, secret: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

export const API_TOKEN_MESSAGES = {
  created: "Token created. Copy it now: it will not be shown again.",
  revoked: "Token revoked.",
  tooMany: `You have ${MAX_API_TOKENS} tokens: revoke one before creating another.`,
  invalid: "This API token is not valid: it may have been revoked or have expired.",
  malformed: "Send the API token as 'Authorization: Bearer <token>'.",
  readOnly: "This API token may only read: create a read-and-write token to make changes.",
  notForTokens: "API tokens cannot be used for this: sign in to Redline to do it.",
} as const;
