/** The card menu: open, set thumbnail, archive or unarchive, delete (with a confirmation). */
import { MESSAGES, type ProjectSummary } from "@redline/shared";
import { Archive, ArchiveRestore, ExternalLink, ImageUp, MoreHorizontal, Trash2 } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { type ChangeEvent, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { IMAGE_TYPES, isTooLarge, readAsDataUrl } from "../../lib/files.ts";
import { useDeleteProject, useSetProjectThumbnail, useUpdateProject } from "./project-queries.ts";

export function ProjectMenu({ project }: { project: ProjectSummary }) {
  const navigate = useNavigate();
  const fileInput = useRef<HTMLInputElement>(null);
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const update = useUpdateProject();
  const remove = useDeleteProject();
  const thumbnail = useSetProjectThumbnail();
  const canArchive = project.abilities.archive;

  const handleThumbnail = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (isTooLarge(file)) {
      snackbar.warning(MESSAGES.maxFileSize);
      return;
    }
    try {
      thumbnail.mutate({ id: project.id, dataUrl: await readAsDataUrl(file) });
    } catch (error) {
      snackbar.error(errorMessage(error));
    }
  };

  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger className="icon-btn" aria-label={`Project actions for ${project.title}`}>
          <MoreHorizontal size={18} aria-hidden />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
            <DropdownMenu.Item className="menu__item" onSelect={() => navigate(`/project/${project.id}`)}>
              <ExternalLink size={16} aria-hidden /> Open
            </DropdownMenu.Item>
            {project.abilities.update ? (
              <DropdownMenu.Item className="menu__item" onSelect={() => fileInput.current?.click()}>
                <ImageUp size={16} aria-hidden /> Set thumbnail
              </DropdownMenu.Item>
            ) : null}
            {canArchive ? (
              <DropdownMenu.Item
                className="menu__item"
                onSelect={() => update.mutate({ id: project.id, isArchived: !project.isArchived })}
              >
                {project.isArchived ? (
                  <>
                    <ArchiveRestore size={16} aria-hidden /> Unarchive
                  </>
                ) : (
                  <>
                    <Archive size={16} aria-hidden /> Archive
                  </>
                )}
              </DropdownMenu.Item>
            ) : null}
            {project.abilities.delete ? (
              <>
                <DropdownMenu.Separator className="menu__separator" />
                <DropdownMenu.Item
                  className="menu__item menu__item--danger"
                  onSelect={() => setDeleteOpen(true)}
                >
                  <Trash2 size={16} aria-hidden /> Delete
                </DropdownMenu.Item>
              </>
            ) : null}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <input
        ref={fileInput}
        className="visually-hidden"
        type="file"
        accept={IMAGE_TYPES}
        tabIndex={-1}
        aria-label={`Thumbnail image for ${project.title}`}
        onChange={handleThumbnail}
      />
      <ConfirmModal
        open={isDeleteOpen}
        onOpenChange={setDeleteOpen}
        title="Delete this project?"
        description={`“${project.title}” and all its pages, versions and comments are deleted. This cannot be undone.`}
        confirmLabel="Delete project"
        pendingLabel="Deleting..."
        isPending={remove.isPending}
        onConfirm={() => remove.mutate(project.id, { onSuccess: () => setDeleteOpen(false) })}
      />
    </>
  );
}
