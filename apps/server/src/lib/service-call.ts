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
