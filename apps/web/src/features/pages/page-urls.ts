/** Turning what users type into page addresses. */

/** 'example.com/pricing' → 'https://example.com/pricing'; null when it is not a web address. */
export function normalizeUrl(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (!url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** Paths (one per line) of one site → absolute, de-duplicated URLs on that site's origin. */
export function urlsFromPaths(base: string, lines: string): string[] {
  const origin = normalizeUrl(base);
  if (!origin) return [];
  const urls = new Set<string>();
  for (const raw of lines.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    try {
      const url = new URL(line.startsWith("/") || /^https?:/i.test(line) ? line : `/${line}`, origin);
      // Several pages "from the same URL": other origins are not taken.
      if (url.origin === new URL(origin).origin) urls.add(url.href);
    } catch {
      // not a path: skipped
    }
  }
  return [...urls];
}
