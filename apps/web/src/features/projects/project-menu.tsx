/**
 * The card menu: open, set thumbnail, move into one of the owner's teams or out of its team, archive or
 * unarchive, delete (with a confirmation).
 */
import { type ProjectSummary, productOf, teamDisplayName } from "@redline/shared";
import {
  Archive,
  ArchiveRestore,
  Check,
  ExternalLink,
  ImageUp,
  MoreHorizontal,
  Trash2,
  Users,
} from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { type ChangeEvent, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { pickedFile } from "../../components/picked-file.ts";
import { snackbar } from "../../components/snackbar-store.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { IMAGE_TYPES, readAsDataUrl } from "../../lib/files.ts";
import { useTeams } from "../teams/team-queries.ts";
import { teamsForNewProjects } from "../teams/use-active-team.ts";
import { useDeleteProject, useSetProjectThumbnail, useUpdateProject } from "./project-queries.ts";

export function ProjectMenu({ project }: { project: ProjectSummary }) {
  const navigate = useNavigate();
  const fileInput = useRef<HTMLInputElement>(null);
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const update = useUpdateProject();
  const remove = useDeleteProject();
  const thumbnail = useSetProjectThumbnail();
  const canArchive = project.abilities.archive;
  const [isOpen, setOpen] = useState(false);
  const product = productOf(project.type);
  const teams = teamsForNewProjects(
    useTeams(product, { enabled: isOpen && project.abilities.moveToTeam }).data ?? [],
    product,
  );
  const moveTo = (teamId: string | null) => {
    if (teamId !== (project.team?.id ?? null)) update.mutate({ id: project.id, teamId });
  };

  const handleThumbnail = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = pickedFile(event);
    if (!file) return;
    try {
      thumbnail.mutate({ id: project.id, dataUrl: await readAsDataUrl(file) });
    } catch (error) {
      snackbar.error(errorMessage(error));
    }
  };

  return (
    <>
      <DropdownMenu.Root open={isOpen} onOpenChange={setOpen}>
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
            {project.abilities.moveToTeam && (teams.length > 0 || project.team) ? (
              <DropdownMenu.Sub>
                <DropdownMenu.SubTrigger className="menu__item">
                  <Users size={16} aria-hidden /> Belongs to
                </DropdownMenu.SubTrigger>
                <DropdownMenu.Portal>
                  <DropdownMenu.SubContent className="menu" sideOffset={4}>
                    <DropdownMenu.RadioGroup
                      value={project.team?.id ?? ""}
                      onValueChange={(value) => moveTo(value || null)}
                    >
                      {[{ id: "", name: "Only me" }, ...teams].map((team) => (
                        <DropdownMenu.RadioItem key={team.id} className="menu__item" value={team.id}>
                          <span className="menu__check">
                            <DropdownMenu.ItemIndicator>
                              <Check size={14} aria-hidden />
                            </DropdownMenu.ItemIndicator>
                          </span>
                          {team.id ? teamDisplayName(team) : team.name}
                        </DropdownMenu.RadioItem>
                      ))}
                    </DropdownMenu.RadioGroup>
                  </DropdownMenu.SubContent>
                </DropdownMenu.Portal>
              </DropdownMenu.Sub>
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
