/**
 * What a refused input says to a person. zod's own texts ("Too big: expected string to have <=4000
 * characters") are written for developers; this module words each issue plainly, naming the field and
 * the allowed size ("The message can be at most 4,000 characters."). It is installed as zod's global
 * error map, which ranks below a message a schema gives itself ("Write a subject."), so those stay as
 * written; the app's error handler then only joins the messages.
 */
import { z } from "zod";

type Issue = z.core.$ZodRawIssue;

const count = (value: number | bigint) => Number(value).toLocaleString("en-US");

/** "participantIds" → "participant ids", "isSeen" → "seen flag"; the last named key of the path, or "request" for the body. */
export function fieldName(path: readonly PropertyKey[] | undefined): string {
  const key = [...(path ?? [])].reverse().find((part): part is string => typeof part === "string");
  if (!key) return "request";
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  // A yes/no flag is named for what it says: "isSeen" → "seen flag", "hasVideo" → "video flag".
  const flag = /^(?:is|has) (.+)$/.exec(words);
  return flag ? `${flag[1]} flag` : words;
}

const SIZED: Record<string, { one: string; many: string }> = {
  string: { one: "character", many: "characters" },
  array: { one: "item", many: "items" },
  set: { one: "item", many: "items" },
  file: { one: "byte", many: "bytes" },
};

const size = (origin: string, n: number | bigint) => {
  const unit = SIZED[origin];
  if (!unit) return count(n);
  return `${count(n)} ${Number(n) === 1 ? unit.one : unit.many}`;
};

const TYPE_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  date: "a date",
};

const FORMAT_WORDS: Record<string, string> = {
  email: "an e-mail address",
  url: "a web address",
  datetime: "a date and time",
  date: "a date",
  uuid: "an id",
};

/** One issue in plain words, e.g. "The message can be at most 4,000 characters." */
export function validationMessage(issue: Issue): string {
  const field = fieldName(issue.path);
  const The = field === "request" ? "The request" : `The ${field}`;
  switch (issue.code) {
    case "too_big": {
      const max = issue.maximum;
      if (issue.exact) return `${The} must have exactly ${size(issue.origin, max)}.`;
      if (issue.origin in SIZED)
        return issue.origin === "string"
          ? `${The} can be at most ${size(issue.origin, max)}.`
          : `${The} can have at most ${size(issue.origin, max)}.`;
      return `${The} must be ${issue.inclusive ? "at most" : "less than"} ${count(max)}.`;
    }
    case "too_small": {
      const min = issue.minimum;
      if (issue.exact) return `${The} must have exactly ${size(issue.origin, min)}.`;
      if (issue.origin === "string" && Number(min) <= 1) return `${The} is required.`;
      if (issue.origin in SIZED) return `${The} needs at least ${size(issue.origin, min)}.`;
      return `${The} must be ${issue.inclusive ? "at least" : "more than"} ${count(min)}.`;
    }
    case "invalid_type":
      if (issue.input === undefined) return `${The} is required.`;
      return `${The} must be ${TYPE_WORDS[issue.expected] ?? issue.expected}.`;
    case "invalid_value":
      if (issue.values.length === 1) return `${The} must be ${String(issue.values[0])}.`;
      return `${The} must be one of: ${issue.values.map(String).join(", ")}.`;
    case "invalid_format":
      return `${The} must be ${FORMAT_WORDS[issue.format] ?? "in the expected form"}.`;
    case "not_multiple_of":
      return `${The} must be a multiple of ${count(Number(issue.divisor))}.`;
    case "unrecognized_keys":
      return `${The} has ${issue.keys.length > 1 ? "fields" : "a field"} it does not take: ${issue.keys.join(", ")}.`;
    default:
      return `${The} is not valid.`;
  }
}

/** Makes every zod message without one of its own plain words (call once, as the app starts). */
export function installValidationMessages(): void {
  z.config({ customError: validationMessage });
}
