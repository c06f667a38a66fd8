/**
 * Mentions (SPEC §5): stored as `{@uid}` in a comment's text, written and read as `@Display Name`.
 * A composer remembers which people it inserted; on send each `@Name` it inserted becomes `{@uid}`.
 * A mention of someone no longer in the project reads '@Deleted user' (SPEC §6).
 */
import { MENTION_PATTERN } from "./comments.ts";

export interface MentionPerson {
  uid: string;
  displayName: string;
}

export const DELETED_MENTION = "@Deleted user";

/** `@Name` → `{@uid}` for each person the composer inserted (longest names first: "Ann Lee" before "Ann"). */
export function toStoredText(text: string, inserted: readonly MentionPerson[]): string {
  let result = text;
  const people = [...inserted].sort((a, b) => b.displayName.length - a.displayName.length);
  for (const person of people) {
    const name = person.displayName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    result = result.replace(new RegExp(`@${name}(?![\\p{L}\\p{N}_])`, "gu"), `{@${person.uid}}`);
  }
  return result;
}

/** Stored text back to what a composer shows, with the people it mentions (to store them again). */
export function toEditableText(
  stored: string,
  people: readonly MentionPerson[],
): { text: string; inserted: MentionPerson[] } {
  const inserted: MentionPerson[] = [];
  const text = stored.replace(MENTION_PATTERN, (whole, uid: string) => {
    const person = people.find((entry) => entry.uid === uid);
    if (!person) return whole;
    if (!inserted.includes(person)) inserted.push(person);
    return `@${person.displayName}`;
  });
  return { text, inserted };
}

export type TextPart = { kind: "text"; text: string } | { kind: "mention"; uid: string; name: string };

/** Stored text split for display; `people` null means unknown (a guest cannot list the project's people). */
export function mentionParts(stored: string, people: readonly MentionPerson[] | null): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of stored.matchAll(MENTION_PATTERN)) {
    const index = match.index ?? 0;
    if (index > last) parts.push({ kind: "text", text: stored.slice(last, index) });
    const uid = match[1]!;
    const person = people?.find((entry) => entry.uid === uid);
    parts.push({
      kind: "mention",
      uid,
      name: person ? `@${person.displayName}` : people ? DELETED_MENTION : "@someone",
    });
    last = index + match[0].length;
  }
  if (last < stored.length) parts.push({ kind: "text", text: stored.slice(last) });
  return parts;
}

/** The mention being typed just before the caret (`@` at a word start, no space yet), or null. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@{}]{0,40})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}
