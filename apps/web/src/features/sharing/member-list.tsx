/**
 * The people of a project, owner first. Controls follow the abilities the server sent: access and
 * removal for those who manage members, the approver switch for those who choose approvers, 'Make
 * owner' for the owner. Everyone else reads the list; anyone but the owner can leave.
 */
import {
  accessLabel,
  MEMBER_ACCESS,
  type MemberAccess,
  type ProjectMember,
  type ProjectSummary,
  teamDisplayName,
} from "@redline/shared";
import { Crown, MoreHorizontal, RotateCw, UserMinus } from "lucide-react";
import { DropdownMenu, Switch as RadixSwitch } from "radix-ui";
import { useId, useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { useMe } from "../session/use-me.ts";
import {
  useMembers,
  useRemoveMember,
  useSetApprover,
  useTransferProject,
  useUpdateMember,
} from "./sharing-queries.ts";

export function memberName(member: ProjectMember): string {
  return member.displayName || member.email || "Unnamed user";
}

export function MemberList({ project, onLeft }: { project: ProjectSummary; onLeft(): void }) {
  const { data: members, isPending, isError, error, refetch, isFetching } = useMembers(project.id);
  const { data: me } = useMe();

  if (isPending)
    return (
      <ul className="share-people" aria-busy="true" aria-label="Loading people">
        {[0, 1].map((key) => (
          <li key={key} className="share-person share-person--skeleton" aria-hidden />
        ))}
      </ul>
    );

  if (isError)
    return (
      <div className="share-message" role="alert">
        <p className="share-message__title">People could not be loaded</p>
        <p className="share-message__text">{errorMessage(error)}</p>
        <button type="button" className="btn" onClick={() => refetch()} disabled={isFetching}>
          <RotateCw size={16} aria-hidden /> Try again
        </button>
      </div>
    );

  return (
    <ul
      className={
        project.abilities.manageMembers || project.abilities.manageApprovers
          ? "share-people"
          : "share-people share-people--read-only"
      }
      aria-label="People with access"
    >
      {members.map((member) => (
        <MemberRow
          key={member.id ?? `owner-${member.uid}`}
          project={project}
          member={member}
          isSelf={member.uid !== null && member.uid === me?.uid}
          onLeft={onLeft}
        />
      ))}
      {members.length === 1 ? (
        <li className="share-people__empty">
          {project.team
            ? `Nobody else is added by e-mail: the team ${teamDisplayName(project.team)} has access.`
            : project.abilities.manageMembers
              ? "Only the owner has access. Add people by e-mail above."
              : "Nobody else has access yet."}
        </li>
      ) : null}
    </ul>
  );
}

function MemberRow({
  project,
  member,
  isSelf,
  onLeft,
}: {
  project: ProjectSummary;
  member: ProjectMember;
  isSelf: boolean;
  onLeft(): void;
}) {
  const id = useId();
  const update = useUpdateMember(project.id);
  const remove = useRemoveMember(project.id);
  const approver = useSetApprover(project.id);
  const transfer = useTransferProject(project.id);
  const [confirm, setConfirm] = useState<"leave" | "transfer" | null>(null);
  const name = memberName(member);
  const { abilities } = member;
  const entryId = member.id;
  const canManage = abilities.changeAccess && entryId !== null;
  const canRemove = abilities.remove && entryId !== null;
  const canTransfer = abilities.makeOwner && member.uid !== null;
  const access = update.isPending ? update.variables.access : member.access;
  const isApprover = approver.isPending ? approver.variables.isApprover : member.isApprover;

  const handleLeave = () => {
    if (!entryId) return;
    remove.mutate({ memberId: entryId, isSelf: true }, { onSuccess: onLeft });
  };
  const handleTransfer = () => {
    if (!member.uid) return;
    transfer.mutate({ to: member.uid, name }, { onSuccess: () => setConfirm(null) });
  };

  return (
    <li className="share-person">
      <Avatar name={name} photoURL={member.photoURL} size={32} />
      <div className="share-person__text">
        <p className="share-person__name">
          <span className="share-person__name-text" title={name}>
            {name}
          </span>
          {isSelf ? <span className="share-person__you"> (you)</span> : null}
        </p>
        <p className="share-person__meta">
          {member.isPending ? <span className="tag tag--info">Invited</span> : null}
          {member.email && member.email !== name ? (
            <span className="share-person__email" title={member.email}>
              {member.email}
            </span>
          ) : null}
          {abilities.leave && entryId ? (
            <button type="button" className="share-person__leave" onClick={() => setConfirm("leave")}>
              Leave project
            </button>
          ) : null}
        </p>
      </div>
      <span className="share-person__approver">
        {abilities.toggleApprover && member.uid ? (
          <>
            <RadixSwitch.Root
              id={`${id}-approver`}
              className="switch switch--small"
              checked={isApprover}
              disabled={approver.isPending}
              aria-label={`Approver: ${name}`}
              onCheckedChange={(checked) => approver.mutate({ uid: member.uid ?? "", isApprover: checked })}
            >
              <RadixSwitch.Thumb className="switch__thumb" />
            </RadixSwitch.Root>
            <label htmlFor={`${id}-approver`}>Approver</label>
          </>
        ) : member.isApprover ? (
          <span className="tag tag--success">Approver</span>
        ) : null}
      </span>
      {canManage ? (
        <select
          className="input share-person__select"
          aria-label={`Access for ${name}`}
          value={access}
          disabled={update.isPending}
          onChange={(event) =>
            update.mutate({ memberId: entryId, access: event.target.value as MemberAccess })
          }
        >
          {MEMBER_ACCESS.map((option) => (
            <option key={option} value={option}>
              {accessLabel(option)}
            </option>
          ))}
        </select>
      ) : (
        <span className="share-person__access">{accessLabel(member.access)}</span>
      )}
      <span className="share-person__actions">
        {canRemove || canTransfer ? (
          <DropdownMenu.Root>
            <DropdownMenu.Trigger className="icon-btn" aria-label={`More actions for ${name}`}>
              <MoreHorizontal size={18} aria-hidden />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu share-menu" align="end" sideOffset={4}>
                {canTransfer ? (
                  <DropdownMenu.Item className="menu__item" onSelect={() => setConfirm("transfer")}>
                    <Crown size={16} aria-hidden /> Make owner
                  </DropdownMenu.Item>
                ) : null}
                {canRemove ? (
                  <DropdownMenu.Item
                    className="menu__item menu__item--danger"
                    onSelect={() => remove.mutate({ memberId: entryId, isSelf: false })}
                  >
                    <UserMinus size={16} aria-hidden /> Remove from project
                  </DropdownMenu.Item>
                ) : null}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        ) : null}
      </span>
      <ConfirmModal
        open={confirm === "leave"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Leave this project?"
        description={`You lose access to “${project.title}” until someone shares it with you again.`}
        confirmLabel="Leave project"
        pendingLabel="Leaving..."
        isPending={remove.isPending}
        onConfirm={handleLeave}
      />
      <ConfirmModal
        open={confirm === "transfer"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Transfer ownership?"
        description={`${name} becomes the owner of “${project.title}”. You keep edit access.`}
        confirmLabel="Transfer ownership"
        pendingLabel="Transferring..."
        isPending={transfer.isPending}
        onConfirm={handleTransfer}
      />
    </li>
  );
}
