/**
 * The navigation state a project just made is opened with, so its first load says 'Building your
 * experience…' (SPEC §2 loading views) instead of the default text.
 */
export const JUST_CREATED = { isJustCreated: true } as const;

export function isJustCreated(state: unknown): boolean {
  return (
    typeof state === "object" &&
    state !== null &&
    (state as { isJustCreated?: unknown }).isJustCreated === true
  );
}
