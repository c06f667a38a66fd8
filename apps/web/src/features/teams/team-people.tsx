/**
 * A team's people (SPEC §6): the owner, managers and members, then the collaborators apart (they only
 * comment, and removing one takes them off the collaborators list only). Every control follows the
 * abilities the server sent for that person: a role select, 'Remove', and 'Leave team' on one's own row.
 */
import { TEAM_ACCESS, type TeamAccess, type TeamMember, type TeamRole } from "@redline/shared";
import { UserMinus } from "lucide-react";
import { useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { IconButton } from "../../components/icon-button.tsx";
import { useRemoveTeamMember, useUpdateTeamMember } from "./team-queries.ts";

const ROLE_LABELS: Record<TeamRole, string> = {
  owner: "Owner",
  manager: "Manager",
  member: "Member",
  collaborator: "Collaborator",
};
export const roleLabel = (role: TeamRole) => ROLE_LABELS[role];
export const TEAM_ACCESS_OPTIONS = TEAM_ACCESS.map((value) => ({ value, label: ROLE_LABELS[value] }));

const personName = (person: TeamMember) => person.displayName || person.email || "Unnamed user";

export function TeamPeople({
  teamId,
  label,
  people,
  selfUid,
  emptyText,
  onLeave,
}: {
  teamId: string;
  /** The list's accessible name, e.g. 'Team members'. */
  label: string;
  people: readonly TeamMember[];
  selfUid: string | undefined;
  emptyText: string;
  onLeave(): void;
}) {
  if (people.length === 0) return <p className="team-people__empty">{emptyText}</p>;
  return (
    <ul className="team-people" aria-label={label}>
      {people.map((person) => (
        <PersonRow
          key={person.id ?? `owner-${person.uid}`}
          teamId={teamId}
          person={person}
          isSelf={person.uid !== null && person.uid === selfUid}
          onLeave={onLeave}
        />
      ))}
    </ul>
  );
}

function PersonRow({
  teamId,
  person,
  isSelf,
  onLeave,
}: {
  teamId: string;
  person: TeamMember;
  isSelf: boolean;
  onLeave(): void;
}) {
  const update = useUpdateTeamMember(teamId);
  const remove = useRemoveTeamMember(teamId);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const name = personName(person);
  const { abilities } = person;
  const entryId = person.id;
  const collaborator = person.access === "collaborator";
  const role = update.isPending ? update.variables.access : person.access;

  return (
    <li className="team-person">
      <Avatar name={name} photoURL={person.photoURL} size={32} />
      <div className="team-person__text">
        <p className="team-person__name" title={name}>
          {name}
          {isSelf ? <span className="team-person__you"> (you)</span> : null}
        </p>
        <p className="team-person__meta">
          {person.isPending ? <span className="tag tag--info">Invited</span> : null}
          {person.email && person.email !== name ? <span title={person.email}>{person.email}</span> : null}
        </p>
      </div>
      {abilities.changeRole && entryId && !collaborator ? (
        <select
          className="input team-person__role"
          aria-label={`Role of ${name}`}
          value={role}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ memberId: entryId, access: event.target.value as TeamAccess })}
        >
          {TEAM_ACCESS_OPTIONS.filter((option) => option.value !== "collaborator").map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <span className="team-person__role-text">{roleLabel(person.access)}</span>
      )}
      <span className="team-person__actions">
        {abilities.leave ? (
          <button type="button" className="btn" onClick={onLeave}>
            Leave team
          </button>
        ) : abilities.remove && entryId ? (
          <IconButton
            label={`Remove ${name}`}
            icon={UserMinus}
            iconSize={18}
            onClick={() => setConfirmRemove(true)}
          />
        ) : null}
      </span>
      <ConfirmModal
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title={collaborator ? "Remove this collaborator?" : "Remove from the team?"}
        description={
          collaborator
            ? `${name} leaves the team's collaborators. Projects shared with them directly stay shared.`
            : `${name} loses access to the team and its projects.`
        }
        confirmLabel="Remove"
        pendingLabel="Removing..."
        isPending={remove.isPending}
        onConfirm={() =>
          entryId &&
          remove.mutate({ memberId: entryId, collaborator }, { onSuccess: () => setConfirmRemove(false) })
        }
      />
    </li>
  );
}
