/**
 * The random key a guest's browser keeps (`redline.guest-key`): sent as `x-redline-guest-key`, it finds the
 * guest's own conversation with a project's people — the name alone would let anyone read it.
 */
const STORAGE_KEY = "redline.guest-key";
let memory: string | null = null;

export function guestKey(): string {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored && /^[A-Za-z0-9_-]{32,128}$/.test(stored)) return stored;
  } catch {
    // Private mode: the key lasts for this visit only.
  }
  memory ??= Array.from(crypto.getRandomValues(new Uint8Array(24)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
  try {
    localStorage.setItem(STORAGE_KEY, memory);
  } catch {}
  return memory;
}
