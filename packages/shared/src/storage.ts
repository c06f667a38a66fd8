/**
 * Storage per plan (SPEC §9: browse Free 1 GB, Standard 30 GB, Pro 150 GB; partner plans A–D 25–300 GB;
 * the web plans in the catalog). What a project owner's files use is measured by the server; these are
 * the pure rules both sides share: the limit in bytes, whether a write may add what it adds, and how a
 * byte count reads (SPEC §9: base 1024, 2 decimals).
 */
import { z } from "zod";
import { UNLIMITED } from "./limits.ts";
import type { Entitlements } from "./plans.ts";

export const BYTES_PER_GB = 1024 ** 3;

/** What a product's projects of one owner hold, and what the owner's plan allows (-1 unlimited). */
export const storageUsageSchema = z.strictObject({ used: z.number(), limit: z.number() });
export type StorageUsage = z.infer<typeof storageUsageSchema>;

/** The storage limit in bytes (-1 unlimited). */
export function storageLimitBytes(entitlements: Pick<Entitlements, "storageGb">): number {
  return entitlements.storageGb === UNLIMITED ? UNLIMITED : entitlements.storageGb * BYTES_PER_GB;
}

/**
 * A write that takes usage from `used` to `after` may go ahead when there is no limit, when it stays
 * within the limit, or when it adds nothing (an owner over a lowered limit may still delete, re-upload a
 * file already held, or copy comments that carry the same attachments).
 */
export function canStore(limit: number, used: number, after: number): boolean {
  return limit === UNLIMITED || after <= limit || after <= used;
}

/** "0 B", "512 B", "1.50 KB", "30.00 GB": base 1024, 2 decimals (SPEC §9). */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(2)} ${units[unit]}`;
}

/** The 402 message of an upload that would pass the owner's storage. */
export function storageLimitMessage(limit: number): string {
  return `The project owner's plan includes ${formatBytes(limit)} of storage, and this would pass it. Upgrade to upload more.`;
}

/** The 402 message of a web app project on a plan without web app support (SPEC §6). */
export const WEB_APP_MESSAGE = "Web app projects are not included in your plan. Upgrade to create one.";
