/**
 * What's New reads CHANGELOG.md (Keep a Changelog: `## [1.2.0] - 2026-11-20`, `### Added`, `- item`).
 * Releases come newest first, as the file keeps them; an `Unreleased` heading is not a release and is
 * left out, as is any section without items.
 */
export interface ChangelogSection {
  title: string;
  items: string[];
}

export interface Release {
  version: string;
  /** ISO date as written, or null when the heading has none. */
  date: string | null;
  sections: ChangelogSection[];
}

const RELEASE = /^##\s+\[?([^\]\s]+)\]?(?:\s+-\s+(\d{4}-\d{2}-\d{2}))?\s*$/;
const SECTION = /^###\s+(.+?)\s*$/;
const ITEM = /^[-*]\s+(.+)$/;

export function parseChangelog(markdown: string): Release[] {
  const releases: Release[] = [];
  let release: Release | null = null;
  let section: ChangelogSection | null = null;
  let isUnreleased = false;
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const heading = RELEASE.exec(line);
    if (heading) {
      isUnreleased = heading[1]!.toLowerCase() === "unreleased";
      release = isUnreleased ? null : { version: heading[1]!, date: heading[2] ?? null, sections: [] };
      if (release) releases.push(release);
      section = null;
      continue;
    }
    if (!release) continue;
    const title = SECTION.exec(line);
    if (title) {
      section = { title: title[1]!, items: [] };
      release.sections.push(section);
      continue;
    }
    const item = ITEM.exec(line);
    if (item && section) {
      section.items.push(item[1]!);
      continue;
    }
    // A wrapped item: an indented line continues the item above it.
    if (/^\s{2,}\S/.test(raw) && section && section.items.length > 0) {
      section.items[section.items.length - 1] += ` ${line.trim()}`;
    }
  }
  for (const each of releases) each.sections = each.sections.filter((s) => s.items.length > 0);
  return releases;
}
