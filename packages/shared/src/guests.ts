/**
 * Guest identity (SPEC §3): `guest__{avatar index or -1}__{name}__{e-mail}`, or `public` for the
 * anonymous visitor of a public link ('Anonymous', avatar 'avatar-share-0', comment access).
 */
export const GUEST_PREFIX = "guest";
export const PUBLIC_GUEST = "public";
export const ANONYMOUS_GUEST = { name: "Anonymous", avatar: "avatar-share-0" } as const;

export interface GuestIdentity {
  name: string;
  email: string | null;
  avatar: string;
}

const GUEST_PATTERN = /^guest__(-1|\d{1,2})__([^_\n]{1,80}(?:_[^_\n]+)*)__([^\s_]{0,320})$/;

export function parseGuestIdentity(value: string | null | undefined): GuestIdentity | null {
  if (!value) return null;
  if (value === PUBLIC_GUEST)
    return { name: ANONYMOUS_GUEST.name, email: null, avatar: ANONYMOUS_GUEST.avatar };
  const match = GUEST_PATTERN.exec(value);
  if (!match) return null;
  const [, avatarIndex, name, email] = match as unknown as [string, string, string, string];
  if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return null;
  const trimmed = name.trim();
  if (!trimmed) return null;
  return {
    name: trimmed,
    email: email || null,
    avatar: avatarIndex === "-1" ? ANONYMOUS_GUEST.avatar : `avatar-share-${avatarIndex}`,
  };
}

export function formatGuestIdentity(guest: {
  avatarIndex: number;
  name: string;
  email?: string | null;
}): string {
  return [
    GUEST_PREFIX,
    String(guest.avatarIndex),
    guest.name.replace(/__+/g, "_").trim(),
    guest.email ?? "",
  ].join("__");
}
