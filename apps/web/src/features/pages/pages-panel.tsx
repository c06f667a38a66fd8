/**
 * The pages panel (SPEC §2): every page, image or PDF of the project that is not archived, the add-page
 * form, and the ways to the card views (all pages as a grid, the archived pages).
 */
import { freePlanTag, type Page, type ProjectDetail } from "@redline/shared";
import { Archive, LayoutGrid, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { ApprovedBadge } from "../../components/approved-badge.tsx";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { VersionStatusTag } from "../../components/version-status-tag.tsx";
import { AddPageForm } from "./add-page-form.tsx";
import { useAddPages } from "./add-pages-context.tsx";
import { PageItemLink } from "./page-item-link.tsx";
import { isUploadPage, versionsLabel } from "./page-labels.ts";
import { useDeletePage, useSetPageArchived } from "./page-queries.ts";
import { UpdateAllPagesButton } from "./update-all-modal.tsx";
import "./pages.css";
import { IconButton } from "../../components/icon-button.tsx";

/** Which card view the main area shows, if any: its link in the panel is marked current. */
export type PagesView = "grid" | "archived";

export function PagesPanel({
  project,
  selectedPageId,
  view,
}: {
  project: ProjectDetail;
  selectedPageId?: string;
  view?: PagesView;
}) {
  const { limit } = useAddPages();
  const planTag = freePlanTag(project.pageCount, limit);
  const pages = project.pages.filter((page) => !page.isArchived);
  const archivedCount = project.pages.length - pages.length;
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
      {project.abilities.updatePages && pages.length > 0 ? (
        <UpdateAllPagesButton projectId={project.id} />
      ) : null}
      <nav className="pages-panel__views" aria-label="Page views">
        <Link
          to={`/project/${project.id}?view=grid`}
          className="pages-panel__view"
          aria-current={view === "grid" ? "page" : undefined}
        >
          <LayoutGrid size={16} aria-hidden /> All pages
        </Link>
        <Link
          to={`/project/${project.id}/archived`}
          className="pages-panel__view"
          aria-current={view === "archived" ? "page" : undefined}
          aria-label={`Archived pages (${archivedCount})`}
        >
          <Archive size={16} aria-hidden /> Archived
          <span className="pages-panel__view-count">{archivedCount}</span>
        </Link>
      </nav>
      {pages.length === 0 ? (
        <div className="pages-panel__empty">
          <p className="pages-panel__empty-title">
            {archivedCount > 0 ? "Every page is archived" : "No pages yet"}
          </p>
          <p className="pages-panel__empty-text">
            {archivedCount > 0
              ? "Archived pages are listed under Archived, where they can be brought back."
              : project.abilities.addPages
                ? "Add a page by its address, or upload an image or PDF."
                : "Pages added to this project will be listed here."}
          </p>
        </div>
      ) : (
        <ul className="pages-list" aria-label="Pages of this project">
          {pages.map((page) => (
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
  const setArchived = useSetPageArchived();
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const latest = page.versions.at(-1);
  const noun = isUploadPage(page) ? "file" : "page";

  const handleDelete = () =>
    remove.mutate(page, {
      onSuccess: () => {
        setDeleteOpen(false);
        if (isSelected) navigate(`/project/${project.id}`);
      },
    });

  const handleArchive = () =>
    setArchived.mutate(
      { page, isArchived: true },
      { onSuccess: () => (isSelected ? navigate(`/project/${project.id}`) : undefined) },
    );

  return (
    <li className={isSelected ? "page-item page-item--selected" : "page-item"}>
      <PageItemLink page={page} to={`/project/${project.id}/${page.id}`} isSelected={isSelected}>
        {versionsLabel(page.numberOfVersions)}
        <VersionStatusTag version={latest} />
        <ApprovedBadge page={page} />
      </PageItemLink>
      {project.abilities.updatePages ? (
        <IconButton
          className="page-item__action"
          label={`Archive ${noun} ${page.title}`}
          icon={Archive}
          disabled={setArchived.isPending}
          onClick={handleArchive}
        />
      ) : null}
      {project.abilities.deletePages ? (
        <IconButton
          className="page-item__action page-item__delete"
          label={`Delete ${noun} ${page.title}`}
          icon={Trash2}
          onClick={() => setDeleteOpen(true)}
        />
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
