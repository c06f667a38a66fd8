/**
 * The guest of a public link (SPEC §3): kept in local storage under `redline.guest`, merged with the
 * anonymous defaults, asked for once. `identity` is what guest requests send (`x-redline-guest`):
 * `guest__{avatar}__{name}__{e-mail}`, or `public` for 'Continue as Anonymous'.
 */
import { ANONYMOUS_GUEST, formatGuestIdentity, PUBLIC_GUEST, parseGuestIdentity } from "@redline/shared";

export const GUEST_STORAGE_KEY = "redline.guest";

export interface Guest {
  identity: string;
  name: string;
  email: string | null;
  /** 1–9 for a named guest; 0 is the anonymous avatar ('avatar-share-0'). */
  avatarIndex: number;
}

const ANONYMOUS: Guest = { identity: PUBLIC_GUEST, name: ANONYMOUS_GUEST.name, email: null, avatarIndex: 0 };

export function readGuest(): Guest | null {
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(GUEST_STORAGE_KEY) ?? "null");
  } catch {
    return null;
  }
  if (!stored || typeof stored !== "object") return null;
  const guest = { ...ANONYMOUS, ...(stored as Partial<Guest>) };
  // A stored value that no longer matches the guest pattern is asked for again.
  return typeof guest.identity === "string" && parseGuestIdentity(guest.identity) ? guest : null;
}

function store(guest: Guest): Guest {
  try {
    localStorage.setItem(GUEST_STORAGE_KEY, JSON.stringify(guest));
  } catch {
    // Private mode or full storage: the guest lasts for this visit only.
  }
  return guest;
}

/** A named guest, or null when the name or e-mail cannot form a valid guest identity. */
export function saveNamedGuest(name: string, email: string | null): Guest | null {
  const cleanName = name.trim().replace(/^_+|_+$/g, "");
  const avatarIndex = 1 + Math.floor(Math.random() * 9);
  const identity = formatGuestIdentity({ avatarIndex, name: cleanName, email });
  if (!cleanName || !parseGuestIdentity(identity)) return null;
  return store({ identity, name: cleanName, email, avatarIndex });
}

export function saveAnonymousGuest(): Guest {
  return store({ ...ANONYMOUS });
}
