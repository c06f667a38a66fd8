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

/** The four parts are joined by "__", so no part may contain "__" (a single "_" is fine, in names and e-mails). */
export function parseGuestIdentity(value: string | null | undefined): GuestIdentity | null {
  if (!value) return null;
  if (value === PUBLIC_GUEST)
    return { name: ANONYMOUS_GUEST.name, email: null, avatar: ANONYMOUS_GUEST.avatar };
  const parts = value.split("__");
  if (parts.length !== 4) return null;
  const [prefix, avatarIndex, rawName, email] = parts as [string, string, string, string];
  if (prefix !== GUEST_PREFIX || !/^(-1|\d{1,2})$/.test(avatarIndex)) return null;
  const name = rawName.trim();
  if (!name || name.length > 80 || /[\n\r]/.test(name)) return null;
  if (email && (email.length > 320 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))) return null;
  return {
    name,
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
