import { randomBytes } from "node:crypto";

/** URL-safe random ids (128 bits) for projects, pages and versions. */
export function newId(): string {
  return randomBytes(16).toString("base64url");
}
