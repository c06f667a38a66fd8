/** The pages panel (SPEC §2): every page, image or PDF of the project, and the add-page form. */
import { freePlanTag, type Page, type ProjectDetail } from "@redline/shared";
import { FileText, Globe, Image as ImageIcon, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { AddPageForm } from "./add-page-form.tsx";
import { useAddPages } from "./add-pages-context.tsx";
import { ApprovedBadge } from "./page-approval.tsx";
import { useDeletePage } from "./page-queries.ts";
import { isUploadPage, pageSource, VersionStatusTag, versionsLabel } from "./page-status.tsx";
import "./pages.css";

export function PagesPanel({ project, selectedPageId }: { project: ProjectDetail; selectedPageId?: string }) {
  const { limit } = useAddPages();
  const planTag = freePlanTag(project.pageCount, limit);
  return (
    <aside className="pages-panel" aria-labelledby="pages-panel-title">
      <div className="pages-panel__head">
        <h2 id="pages-panel-title" className="pages-panel__title">
          Pages
        </h2>
        <span className="pages-panel__count">
          {limit === -1 ? project.pageCount : `${project.pageCount} / ${limit}`}
        </span>
        {planTag ? (
          <span className={planTag === "Limit reached" ? "tag tag--warning" : "tag"}>{planTag}</span>
        ) : null}
      </div>
      {project.abilities.addPages ? <AddPageForm /> : null}
      {project.pages.length === 0 ? (
        <div className="pages-panel__empty">
          <p className="pages-panel__empty-title">No pages yet</p>
          <p className="pages-panel__empty-text">
            {project.abilities.addPages
              ? "Add a page by its address, or upload an image or PDF."
              : "Pages added to this project will be listed here."}
          </p>
        </div>
      ) : (
        <ul className="pages-list" aria-label="Pages of this project">
          {project.pages.map((page) => (
            <PageItem key={page.id} project={project} page={page} isSelected={page.id === selectedPageId} />
          ))}
        </ul>
      )}
    </aside>
  );
}

function PageItem({
  project,
  page,
  isSelected,
}: {
  project: ProjectDetail;
  page: Page;
  isSelected: boolean;
}) {
  const navigate = useNavigate();
  const remove = useDeletePage();
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const latest = page.versions.at(-1);
  const Icon = isUploadPage(page) ? (page.isPDF ? FileText : ImageIcon) : Globe;
  const noun = isUploadPage(page) ? "file" : "page";

  const handleDelete = () =>
    remove.mutate(page, {
      onSuccess: () => {
        setDeleteOpen(false);
        if (isSelected) navigate(`/project/${project.id}`);
      },
    });

  return (
    <li className={isSelected ? "page-item page-item--selected" : "page-item"}>
      <Link
        to={`/project/${project.id}/${page.id}`}
        className="page-item__link"
        aria-current={isSelected ? "page" : undefined}
      >
        <span className="page-item__thumb">
          {page.thumbnail ? (
            <img src={page.thumbnail} alt="" loading="lazy" />
          ) : (
            <Icon size={20} aria-hidden />
          )}
        </span>
        <span className="page-item__text">
          <span className="page-item__title">{page.title}</span>
          <span className="page-item__source">{pageSource(page)}</span>
          <span className="page-item__meta">
            {versionsLabel(page.numberOfVersions)}
            <VersionStatusTag version={latest} />
            <ApprovedBadge page={page} />
          </span>
        </span>
      </Link>
      {project.abilities.deletePages ? (
        <button
          type="button"
          className="icon-btn page-item__delete"
          aria-label={`Delete ${noun} ${page.title}`}
          onClick={() => setDeleteOpen(true)}
        >
          <Trash2 size={16} aria-hidden />
        </button>
      ) : null}
      <ConfirmModal
        open={isDeleteOpen}
        onOpenChange={setDeleteOpen}
        title={`Delete this ${noun}?`}
        description={`“${page.title}” and all its versions and comments are deleted. This cannot be undone.`}
        confirmLabel={`Delete ${noun}`}
        pendingLabel="Deleting..."
        isPending={remove.isPending}
        onConfirm={handleDelete}
      />
    </li>
  );
}
