/**
 * A project's people and its public link. Keys follow the API routes:
 * ['api', 'projects', id, 'members'] is GET /api/projects/{id}/members. Every write invalidates
 * ['api', 'projects'] (lists, the open project, its members), so access labels and abilities agree.
 * Snackbars show the server's own message (SPEC §8), 7 s like other collaborator messages (§9).
 */
import {
  type MemberAccess,
  type ProjectDetail,
  type ProjectMember,
  type ProjectSharing,
  SHARING_MESSAGES,
  SNACKBAR_MS,
} from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { PROJECTS_KEY, projectKey } from "../projects/project-queries.ts";

export const membersKey = (projectId: string) => [...projectKey(projectId), "members"] as const;
const projectPath = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}`;

const showMessage = (message: string | undefined, fallback: string) =>
  snackbar.success(message || fallback, SNACKBAR_MS.team);
const showError = (error: unknown) => snackbar.error(errorMessage(error), SNACKBAR_MS.team);

export function useMembers(projectId: string) {
  return useQuery({
    queryKey: membersKey(projectId),
    queryFn: async ({ signal }) =>
      (await api<{ data: ProjectMember[] }>(`${projectPath(projectId)}/members`, { signal })).data,
    // Read again whenever a view that lists people opens: the share dialog must never show an old list.
    staleTime: 0,
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
}

export function useAddMember(projectId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { email: string; access: MemberAccess }) =>
      api<{ data: { id: string; isPending: boolean }; message: string }>(
        `${projectPath(projectId)}/members`,
        {
          method: "POST",
          body: input,
        },
      ),
    onSuccess: ({ message }) => showMessage(message, SHARING_MESSAGES.shared),
    // Errors show under the form's field.
    onSettled: invalidate,
  });
}

export function useUpdateMember(projectId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ memberId, access }: { memberId: string; access: MemberAccess }) =>
      api<{ message: string }>(`${projectPath(projectId)}/members/${encodeURIComponent(memberId)}`, {
        method: "PATCH",
        body: { access },
      }),
    onSuccess: ({ message }) => showMessage(message, SHARING_MESSAGES.accessUpdated),
    onError: showError,
    onSettled: invalidate,
  });
}

/** Removing someone, or leaving (then the caller goes to /projects). */
export function useRemoveMember(projectId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ memberId }: { memberId: string; isSelf: boolean }) =>
      api<{ message: string }>(`${projectPath(projectId)}/members/${encodeURIComponent(memberId)}`, {
        method: "DELETE",
      }),
    onSuccess: ({ message }, { isSelf }) =>
      showMessage(message, isSelf ? SHARING_MESSAGES.removedSelf : SHARING_MESSAGES.removed),
    onError: showError,
    // Whoever left cannot read the project any more: only the lists are refreshed, or the open
    // project would answer 404 and say 'Project not found' on the way out.
    onSettled: (_data, error, { isSelf }) =>
      isSelf && !error
        ? queryClient.invalidateQueries({
            queryKey: PROJECTS_KEY,
            predicate: (query) => query.queryKey[2] !== projectId,
          })
        : invalidate(),
  });
}

export function useTransferProject(projectId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ to }: { to: string; name: string }) =>
      api<{ data: { owner: string } }>(`${projectPath(projectId)}/transfer`, {
        method: "POST",
        body: { to },
      }),
    // The API answers without a message, and SPEC §8 has none for it.
    onSuccess: (_data, { name }) => snackbar.success(`${name} is now the owner.`, SNACKBAR_MS.team),
    onError: showError,
    onSettled: invalidate,
  });
}

export function useSetApprover(projectId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ uid, isApprover }: { uid: string; isApprover: boolean }) =>
      api<{ message: string }>(`${projectPath(projectId)}/approvers/${encodeURIComponent(uid)}`, {
        method: "PUT",
        body: { isApprover },
      }),
    onSuccess: ({ message }) => showMessage(message, SHARING_MESSAGES.approverUpdated),
    onError: showError,
    onSettled: invalidate,
  });
}

/** The public link's settings; the open project's cache takes the answer at once. */
export function useUpdateSharing(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<ProjectSharing>) =>
      api<{ data: ProjectSharing }>(`${projectPath(projectId)}/sharing`, { method: "PATCH", body: patch }),
    // Switches flip at once; a refusal puts the previous settings back.
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: projectKey(projectId), exact: true });
      const previous = queryClient.getQueryData<ProjectDetail>(projectKey(projectId));
      if (previous)
        queryClient.setQueryData<ProjectDetail>(projectKey(projectId), {
          ...previous,
          sharing: { ...previous.sharing, ...patch },
        });
      return { previous };
    },
    onSuccess: ({ data }) =>
      queryClient.setQueryData<ProjectDetail>(projectKey(projectId), (project) =>
        project ? { ...project, sharing: data } : project,
      ),
    onError: (error, _patch, context) => {
      if (context?.previous) queryClient.setQueryData(projectKey(projectId), context.previous);
      showError(error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKey(projectId), exact: true }),
  });
}
