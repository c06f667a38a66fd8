/**
 * A team project's collaborators in the share modal (SPEC §4): the team's collaborators, each switched
 * into the project (they comment there) or out of it by the project's editors; others see who is in.
 */
import {
  type ProjectCollaborator,
  type ProjectSummary,
  SNACKBAR_MS,
  TEAM_PROJECT_MESSAGES,
  teamDisplayName,
} from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Avatar } from "../../components/avatar.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { Switch } from "../../components/switch.tsx";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { PROJECTS_KEY, projectKey } from "../projects/project-queries.ts";

const collaboratorsKey = (projectId: string) => [...projectKey(projectId), "collaborators"] as const;
const path = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/collaborators`;

function useCollaborators(projectId: string) {
  return useQuery({
    queryKey: collaboratorsKey(projectId),
    queryFn: async ({ signal }) =>
      (await api<{ data: ProjectCollaborator[] }>(path(projectId), { signal })).data,
    staleTime: 0,
  });
}

function useToggleCollaborator(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uid, enabled }: { uid: string; enabled: boolean }) =>
      api<{ message: string }>(`${path(projectId)}/${encodeURIComponent(uid)}`, {
        method: "PUT",
        body: { enabled },
      }),
    onSuccess: ({ message }, { enabled }) =>
      snackbar.success(
        message ||
          (enabled ? TEAM_PROJECT_MESSAGES.collaboratorAdded : TEAM_PROJECT_MESSAGES.collaboratorRemoved),
        SNACKBAR_MS.team,
      ),
    onError: (error) => snackbar.error(errorMessage(error), SNACKBAR_MS.team),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY }),
  });
}

export function TeamCollaborators({ project }: { project: ProjectSummary }) {
  const collaborators = useCollaborators(project.id);
  const toggle = useToggleCollaborator(project.id);
  if (!project.team) return null;
  const canToggle = project.abilities.manageMembers;
  const team = teamDisplayName(project.team);

  return (
    <section className="share-section" aria-labelledby="share-collaborators-title">
      <div className="share-section__head">
        <h3 id="share-collaborators-title" className="share-section__title">
          Team collaborators
        </h3>
      </div>
      <p className="share-section__text">
        Everyone in {team} edits this project. Its collaborators comment on it once switched on here.
      </p>
      {collaborators.isPending ? (
        <p className="share-section__text" aria-busy="true">
          Loading collaborators...
        </p>
      ) : collaborators.isError ? (
        <p className="share-section__text" role="alert">
          {errorMessage(collaborators.error)}{" "}
          <button type="button" className="link" onClick={() => void collaborators.refetch()}>
            Try again
          </button>
        </p>
      ) : collaborators.data.length === 0 ? (
        <p className="share-section__text">{team} has no collaborators yet.</p>
      ) : (
        <ul className="team-collaborators" aria-label="Team collaborators">
          {collaborators.data.map((person) => {
            const name = person.displayName || person.email;
            const pending = toggle.isPending && toggle.variables?.uid === person.uid;
            return (
              <li key={person.uid} className="team-collaborators__row">
                <Avatar name={name} photoURL={person.photoURL} size={32} />
                <div className="team-collaborators__switch">
                  <Switch
                    label={name}
                    description={person.enabled ? "Can comment" : person.email}
                    checked={pending ? toggle.variables!.enabled : person.enabled}
                    disabled={!canToggle || pending}
                    onCheckedChange={(enabled) => toggle.mutate({ uid: person.uid, enabled })}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
