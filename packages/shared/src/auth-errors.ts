/**
 * Authentication errors travel as 'auth/…' codes (SPEC §8). The server maps its auth library's codes to
 * these; the client shows the code with the prefix stripped, made readable.
 */
export const AUTH_ERROR_CODES = {
  INVALID_EMAIL_OR_PASSWORD: "auth/invalid-credential",
  USER_ALREADY_EXISTS: "auth/email-already-in-use",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "auth/email-already-in-use",
  EMAIL_NOT_VERIFIED: "auth/email-not-verified",
  PASSWORD_TOO_SHORT: "auth/weak-password",
  PASSWORD_TOO_LONG: "auth/weak-password",
  INVALID_EMAIL: "auth/invalid-email",
  INVALID_TOKEN: "auth/invalid-action-code",
  TOKEN_EXPIRED: "auth/expired-action-code",
  INVALID_PASSWORD: "auth/wrong-password",
  USER_NOT_FOUND: "auth/user-not-found",
  SESSION_EXPIRED: "auth/requires-recent-login",
  REQUIRES_RECENT_LOGIN: "auth/requires-recent-login",
  TOO_MANY_REQUESTS: "auth/too-many-requests",
  /** An instance admin disabled the account (modules/admin). */
  USER_DISABLED: "auth/user-disabled",
} as const satisfies Record<string, `auth/${string}`>;

export const REQUIRES_RECENT_LOGIN = "auth/requires-recent-login";

/** Maps a server/library error code to its 'auth/…' code; unknown codes become 'auth/internal-error'. */
export function toAuthCode(code: string | undefined): string {
  if (!code) return "auth/internal-error";
  if (code.startsWith("auth/")) return code;
  return (AUTH_ERROR_CODES as Record<string, string>)[code] ?? "auth/internal-error";
}

/** 'auth/email-already-in-use' → 'Email already in use'. */
export function authErrorMessage(code: string): string {
  const words = code.replace(/^auth\//, "").replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
