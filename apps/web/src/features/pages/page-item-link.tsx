/**
 * A page's row in a pages list (the project's pages panel, a shared project's pages): its thumbnail or
 * its kind's icon, its title and source, and a meta line (`children`: versions, status, approval).
 */
import type { Page } from "@redline/shared";
import { FileText, Globe, Image as ImageIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { isUploadPage, pageSource } from "./page-labels.ts";

export function PageItemLink({
  page,
  to,
  replace,
  isSelected,
  children,
}: {
  page: Page;
  to: string;
  /** The link replaces the history entry (a shared view swapping its page). */
  replace?: boolean;
  isSelected: boolean;
  children: ReactNode;
}) {
  const Icon = isUploadPage(page) ? (page.isPDF ? FileText : ImageIcon) : Globe;
  return (
    <Link
      to={to}
      replace={replace}
      className="page-item__link"
      aria-current={isSelected ? "page" : undefined}
    >
      <span className="page-item__thumb">
        {page.thumbnail ? <img src={page.thumbnail} alt="" loading="lazy" /> : <Icon size={20} aria-hidden />}
      </span>
      <span className="page-item__text">
        <span className="page-item__title">{page.title}</span>
        <span className="page-item__source">{pageSource(page)}</span>
        <span className="page-item__meta">{children}</span>
      </span>
    </Link>
  );
}
