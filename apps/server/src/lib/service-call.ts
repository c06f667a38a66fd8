/**
 * Calling an outside service's HTTP API (the task trackers' clients under integrations/): a time limit on
 * every call, and one kind of error that tells a call that never reached the service (`status` null) from
 * one it refused, and whether trying again later may help.
 */

/** How long a call may take before it counts as not reached. */
export const SERVICE_TIMEOUT_MS = 10_000;

/** A call the service refused or could not answer; `status` null when it was not reached at all. */
export class ServiceError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
  /** Worth trying again later: not reached, 429 or 5xx. */
  get isTransient(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}

/**
 * One call, its JSON answer parsed (null for an empty body). A failure is the service's own error class,
 * saying "{service} was not reached: …" or "{service} answered {status}: {the start of the body}".
 */
export async function callService<T>(
  service: { name: string; error: new (status: number | null, message: string) => ServiceError },
  url: string,
  init: RequestInit,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS) });
  } catch (error) {
    throw new service.error(null, `${service.name} was not reached: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok)
    throw new service.error(
      response.status,
      `${service.name} answered ${response.status}: ${text.slice(0, 200)}`,
    );
  return (text ? JSON.parse(text) : null) as T;
}

/** An address with its query: an OAuth app's authorize page, a call that takes its parameters there. */
export function withQuery(address: string, params: Record<string, string>): string {
  const url = new URL(address);
  url.search = new URLSearchParams(params).toString();
  return url.toString();
}

/** What an OAuth 2.0 token endpoint grants: an access token, a refresh token if any, when the first expires. */
export interface OAuthGrant {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds; an hour from now when the answer says no lifetime. */
  expiresAt: number;
}

/**
 * An authorization code or a refresh token exchanged at an OAuth 2.0 token endpoint (`fields` with the
 * app's own), sent as a form or as JSON as the service takes it.
 */
export async function oauthTokenGrant(
  service: Parameters<typeof callService>[0],
  tokenUrl: string,
  encoding: "form" | "json",
  fields: Record<string, string>,
): Promise<OAuthGrant> {
  const answer = await callService<{ access_token: string; refresh_token?: string; expires_in?: number }>(
    service,
    tokenUrl,
    {
      method: "POST",
      headers: {
        "content-type": encoding === "form" ? "application/x-www-form-urlencoded" : "application/json",
        accept: "application/json",
      },
      body: encoding === "form" ? new URLSearchParams(fields).toString() : JSON.stringify(fields),
    },
  );
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000,
  };
}
