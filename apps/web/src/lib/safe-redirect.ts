/**
 * `?goto=` must never become an open redirect: only same-origin relative paths that start with a
 * single '/' are followed; anything else falls back to the default.
 */
export const DEFAULT_AFTER_SIGN_IN = "/projects";

export function safeGoto(value: string | null | undefined, fallback = DEFAULT_AFTER_SIGN_IN): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  try {
    const origin = window.location.origin;
    const url = new URL(value, origin);
    if (url.origin !== origin) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** '/?goto=/profile%3Ftab%3Dx' for a protected location the visitor asked for. */
export function signInPathFor(pathWithSearch: string): string {
  return `/?${new URLSearchParams({ goto: pathWithSearch }).toString()}`;
}

/**
 * A `?goto=` worth carrying through sign-up and e-mail verification (SPEC §2: after sign-in, the URL
 * originally asked for): its safe path, or null when there is none or it is only the default.
 */
export function continuePathFor(goto: string | null | undefined): string | null {
  const path = safeGoto(goto);
  return goto && path !== DEFAULT_AFTER_SIGN_IN ? path : null;
}

/** `/signup`, keeping where the visitor was going. */
export function signUpPathFor(goto: string | null | undefined): string {
  const path = continuePathFor(goto);
  return path ? `/signup?${new URLSearchParams({ goto: path })}` : "/signup";
}
