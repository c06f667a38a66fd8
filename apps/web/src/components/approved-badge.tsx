/** A page's approval as a read-only badge, for lists and for those who may not approve. */
import type { Page } from "@redline/shared";
import { CircleCheck } from "lucide-react";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export function approvedTitle(page: Pick<Page, "isApproved">): string | undefined {
  return page.isApproved ? `Approved on ${dateFormat.format(new Date(page.isApproved.date))}` : undefined;
}

export function ApprovedBadge({ page }: { page: Pick<Page, "isApproved"> }) {
  if (!page.isApproved) return null;
  return (
    <span className="tag tag--success" title={approvedTitle(page)}>
      <CircleCheck size={12} aria-hidden /> Approved
    </span>
  );
}
