/** The people one can mention in a project's comments: its members and, for a team project, its team. */
import type { MentionPerson, ProjectDetail } from "@redline/shared";
import { useMemo } from "react";
import { useMembers } from "../sharing/sharing-queries.ts";
import { useTeam } from "../teams/team-queries.ts";

export function useMentionPeople(project: Pick<ProjectDetail, "id" | "team">): MentionPerson[] {
  const members = useMembers(project.id);
  // A team project's team (its owner, managers and members) is among the people one can mention.
  const team = useTeam(project.team?.id ?? null);
  return useMemo<MentionPerson[]>(() => {
    const everyone = [...(members.data ?? []), ...(team.data?.members ?? [])].flatMap((person) =>
      person.uid && !person.isPending ? [{ uid: person.uid, displayName: person.displayName }] : [],
    );
    return [...new Map(everyone.map((person) => [person.uid, person])).values()];
  }, [members.data, team.data]);
}
