/**
 * The versions panel (SPEC §2: review, rename, delete versions): newest first, the shown one marked.
 * Editors rename inline, delete any but the last remaining one, and add a version — a fresh capture for
 * a URL page, an uploaded image for an image page (which then opens in the comment view, SPEC §4).
 * Anyone may copy a version's external link (`/preview/…`), which opens while the public link is on.
 */
import type { Page, Version } from "@redline/shared";
import { Camera, CopyPlus, Link2, Pencil, RotateCw, Trash2, Upload, X } from "lucide-react";
import { type ChangeEvent, type KeyboardEvent, useId, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { IconButton } from "../../components/icon-button.tsx";
import { pickedFile } from "../../components/picked-file.ts";
import { snackbar } from "../../components/snackbar-store.ts";
import { VersionStatusTag } from "../../components/version-status-tag.tsx";
import { IMAGE_TYPES } from "../../lib/files.ts";
import { useCopyUnresolved } from "../comments/comment-queries.ts";
import { isUploadPage } from "../pages/page-labels.ts";
import { useDeleteVersion, useRecapture, useRenameVersion, useUploadVersion } from "./version-queries.ts";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function VersionsPanel({
  projectId,
  page,
  currentVersionId,
  view,
  canEdit,
  onClose,
}: {
  projectId: string;
  page: Page;
  currentVersionId: string;
  view: string;
  canEdit: boolean;
  onClose(): void;
}) {
  const id = useId();
  const navigate = useNavigate();
  const recapture = useRecapture();
  const uploadVersion = useUploadVersion();
  const versions = [...page.versions].reverse();
  const open = (versionId: string) => navigate(`/project/${projectId}/${page.id}/${versionId}/comment`);

  const [copyComments, setCopyComments] = useState(true);
  const copyUnresolved = useCopyUnresolved({ projectId, versionId: currentVersionId });
  const isFirstVersion = page.versions[0]?.id === currentVersionId;
  const handleRecapture = () =>
    recapture.mutate(
      { pageId: page.id, copyUnresolvedComments: copyComments },
      { onSuccess: ({ data }) => open(data.id) },
    );

  const handleFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = pickedFile(event);
    if (!file) return;
    uploadVersion.mutate({ pageId: page.id, file }, { onSuccess: ({ data }) => open(data.id) });
  };

  return (
    <aside className="side-panel" aria-labelledby={`${id}-title`}>
      <div className="side-panel__head">
        <h2 id={`${id}-title`} className="side-panel__title">
          Versions
        </h2>
        <button type="button" className="icon-btn" aria-label="Close versions" onClick={onClose}>
          <X size={18} aria-hidden />
        </button>
      </div>
      {canEdit && !isUploadPage(page) ? (
        <button
          type="button"
          className="btn btn--block"
          onClick={handleRecapture}
          disabled={recapture.isPending}
        >
          {page.screenshotSource ? <Camera size={16} aria-hidden /> : <RotateCw size={16} aria-hidden />}
          {recapture.isPending ? "Starting capture..." : "Re-capture"}
        </button>
      ) : null}
      {canEdit && !isUploadPage(page) ? (
        <label className="checkbox versions-panel__option" htmlFor={`${id}-copy`}>
          <input
            id={`${id}-copy`}
            type="checkbox"
            checked={copyComments}
            onChange={(event) => setCopyComments(event.target.checked)}
          />
          Copy unresolved comments to the new version
        </label>
      ) : null}
      {canEdit && !isFirstVersion ? (
        <button
          type="button"
          className="btn btn--ghost btn--block"
          onClick={() => copyUnresolved.mutate()}
          disabled={copyUnresolved.isPending}
        >
          <CopyPlus size={16} aria-hidden />
          {copyUnresolved.isPending
            ? "Copying comments..."
            : "Copy unresolved comments from previous version"}
        </button>
      ) : null}
      {canEdit && isUploadPage(page) && !page.isPDF ? (
        <>
          <input
            id={`${id}-file`}
            className="visually-hidden file-input"
            type="file"
            accept={IMAGE_TYPES}
            onChange={handleFile}
            disabled={uploadVersion.isPending}
          />
          <label className="btn btn--block" htmlFor={`${id}-file`}>
            <Upload size={16} aria-hidden /> {uploadVersion.isPending ? "Uploading..." : "Upload new version"}
          </label>
        </>
      ) : null}
      <ol className="versions-list" aria-label="Versions of this page">
        {versions.map((version) => (
          <VersionRow
            key={version.id}
            version={version}
            href={`/project/${projectId}/${page.id}/${version.id}/${view}`}
            externalLink={`${window.location.origin}/preview/${projectId}/${page.id}/${version.id}`}
            isCurrent={version.id === currentVersionId}
            canEdit={canEdit}
            canDelete={canEdit && versions.length > 1}
            onDeleted={() => navigate(`/project/${projectId}/${page.id}`)}
          />
        ))}
      </ol>
    </aside>
  );
}

function VersionRow({
  version,
  href,
  externalLink,
  isCurrent,
  canEdit,
  canDelete,
  onDeleted,
}: {
  version: Version;
  href: string;
  externalLink: string;
  isCurrent: boolean;
  canEdit: boolean;
  canDelete: boolean;
  onDeleted(): void;
}) {
  const rename = useRenameVersion();
  const remove = useDeleteVersion();
  const [draft, setDraft] = useState<string | null>(null);
  const [isDeleteOpen, setDeleteOpen] = useState(false);

  const finish = (save: boolean) => {
    const title = draft?.trim();
    setDraft(null);
    if (save && title && title !== version.title) rename.mutate({ versionId: version.id, title });
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") finish(true);
    if (event.key === "Escape") {
      event.stopPropagation();
      finish(false);
    }
  };

  return (
    <li className={isCurrent ? "version-row version-row--current" : "version-row"}>
      {draft !== null ? (
        <input
          className="input version-row__input"
          aria-label="Version title"
          value={draft}
          maxLength={200}
          // biome-ignore lint/a11y/noAutofocus: the input replaces the button the user just pressed
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={handleKeyDown}
          onBlur={() => finish(true)}
        />
      ) : (
        <Link to={href} className="version-row__link" aria-current={isCurrent ? "page" : undefined}>
          <span className="version-row__title">{version.title}</span>
          <span className="version-row__meta">
            <time dateTime={version.createdAt}>{dateFormat.format(new Date(version.createdAt))}</time>
            {version.status === "ready" ? null : <VersionStatusTag version={version} />}
          </span>
        </Link>
      )}
      {draft === null ? (
        <IconButton
          label={`Copy external link to ${version.title}`}
          icon={Link2}
          iconSize={15}
          onClick={() => copyExternalLink(externalLink)}
        />
      ) : null}
      {canEdit && draft === null ? (
        <IconButton
          label={`Rename ${version.title}`}
          icon={Pencil}
          iconSize={15}
          onClick={() => setDraft(version.title)}
        />
      ) : null}
      {canDelete && draft === null ? (
        <IconButton
          label={`Delete ${version.title}`}
          icon={Trash2}
          iconSize={15}
          onClick={() => setDeleteOpen(true)}
        />
      ) : null}
      <ConfirmModal
        open={isDeleteOpen}
        onOpenChange={setDeleteOpen}
        title="Delete this version?"
        description={`“${version.title}” and its comments are deleted. This cannot be undone.`}
        confirmLabel="Delete version"
        pendingLabel="Deleting..."
        isPending={remove.isPending}
        // mutateAsync: this row unmounts when the refetched page no longer lists the version, and a
        // mutate() callback would then never run.
        onConfirm={() =>
          remove.mutateAsync(version.id).then(
            () => {
              setDeleteOpen(false);
              onDeleted();
            },
            () => undefined, // the mutation shows its own error
          )
        }
      />
    </li>
  );
}

async function copyExternalLink(link: string) {
  try {
    await navigator.clipboard.writeText(link);
    snackbar.success("Link copied. It opens for anyone while the project's public link is on.");
  } catch {
    snackbar.info(link, null);
  }
}
