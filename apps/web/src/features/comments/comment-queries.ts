/**
 * A version's comments. Keys follow the API routes: ['api', 'versions', id, 'comments'] is
 * GET /api/versions/{id}/comments; a visitor of a public link reads
 * ['api', 'share', project, 'versions', id, 'comments'] (a deck's: ['api', 'share', project,
 * 'slide-comments']) and writes with its guest identity
 * (`x-redline-guest`). Every answer carrying a comment is written straight into the cache, so the
 * author sees it at once; others get it through the realtime socket (realtime.ts).
 */
import {
  type AnchorStatus,
  type Attachment,
  COMMENT_MESSAGES,
  type Comment,
  type CreateCommentInput,
  type CreateSlideCommentInput,
  type ProjectDetail,
  type Target,
  type VideoInput,
} from "@redline/shared";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { snackbar } from "../../components/snackbar-store.ts";
import { showPlanRefusal } from "../../components/upgrade-prompt-store.ts";
import {
  linkGuestVideoTarget,
  projectVideoTarget,
  type VideoTarget,
} from "../../components/video/video-recorder-modal.tsx";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { PROJECTS_KEY, projectKey } from "../projects/project-queries.ts";

/**
 * Where comments are read and written: as a member, or as a guest of the public link. `slides`: an
 * illustration project's slide comments (all its slides' in one list; `versionId` is then unused).
 */
export interface CommentScope {
  projectId: string;
  versionId: string;
  slides?: true;
  /** Set for a visitor of the public link: the `x-redline-guest` identity. */
  guestIdentity?: string;
}

/** A new comment as the web sends it: where it points is its `target` (the one target type, ADR 0045). */
export type NewComment = Omit<CreateCommentInput, "target" | "anchor" | "dotPosition" | "pdfPage"> & {
  target: Target;
};

const enc = encodeURIComponent;
export const commentsKey = (
  scope: Pick<CommentScope, "projectId" | "versionId" | "guestIdentity" | "slides">,
) =>
  scope.slides
    ? scope.guestIdentity === undefined
      ? (["api", "projects", scope.projectId, "slide-comments"] as const)
      : (["api", "share", scope.projectId, "slide-comments"] as const)
    : scope.guestIdentity === undefined
      ? (["api", "versions", scope.versionId, "comments"] as const)
      : (["api", "share", scope.projectId, "versions", scope.versionId, "comments"] as const);

/**
 * An illustration project's slide comments (the list the cache keeps under `commentsKey`): a member's, or
 * read and written through the public link by its guest (`guestIdentity`).
 */
export const slideCommentsScope = (projectId: string, guestIdentity?: string): CommentScope => ({
  projectId,
  versionId: "",
  slides: true,
  ...(guestIdentity !== undefined && { guestIdentity }),
});

const listPath = (scope: CommentScope) =>
  scope.slides
    ? `${scope.guestIdentity === undefined ? "/api/projects" : "/api/share"}/${enc(scope.projectId)}/slide-comments`
    : scope.guestIdentity === undefined
      ? `/api/versions/${enc(scope.versionId)}/comments`
      : `/api/share/${enc(scope.projectId)}/versions/${enc(scope.versionId)}/comments`;
const guestHeaders = (scope: CommentScope) =>
  scope.guestIdentity === undefined ? undefined : { "x-redline-guest": scope.guestIdentity };

/**
 * Where this scope's writer records a video: a guest through the public link (the server lets them when the
 * link allows comments, as their composer is shown only then), a member to the project when they may attach.
 */
export const videoTargetOf = (scope: CommentScope, mayAttach: boolean): VideoTarget | null =>
  scope.guestIdentity !== undefined
    ? linkGuestVideoTarget(scope.projectId, scope.guestIdentity)
    : mayAttach
      ? projectVideoTarget(scope.projectId)
      : null;

const readComments =
  (scope: CommentScope) =>
  async ({ signal }: { signal: AbortSignal }) =>
    scope.slides
      ? (await api<{ data: { comments: Comment[] } }>(listPath(scope), { signal })).data.comments
      : (await api<{ data: Comment[] }>(listPath(scope), { signal })).data;

/** A version's comments; kept current by realtime events (members' project room, a link guest's socket). */
export function useComments(scope: CommentScope, enabled = true) {
  return useQuery({ queryKey: commentsKey(scope), queryFn: readComments(scope), enabled });
}

/** How many comments a review page reads first, shown while the whole list (megabytes at 10,000) comes. */
export const FIRST_COMMENTS = 50;

/** GET /api/versions/{id}/comments?first=N: the version's first comments, and how many it has. */
export interface FirstComments {
  comments: Comment[];
  total: number;
}

/** The first page's key: under the list's, so a refetch or restart of the list's reads includes it. */
export const firstCommentsKey = (scope: Pick<CommentScope, "projectId" | "versionId">) =>
  [...commentsKey(scope), { first: FIRST_COMMENTS }] as const;

const readFirstComments =
  (scope: CommentScope) =>
  async ({ signal }: { signal: AbortSignal }): Promise<FirstComments> => {
    const answer = await api<{ data: Comment[]; total: number }>(
      `${listPath(scope)}?first=${FIRST_COMMENTS}`,
      { signal },
    );
    return { comments: answer.data, total: answer.total };
  };

/** Whether a scope reads a first page apart: a member's version (a link guest's and a deck's read whole). */
const readsFirstPage = (scope: CommentScope) => !scope.slides && scope.guestIdentity === undefined;

/** What a review page shows of a version's comments. */
export interface ShownComments {
  comments: Comment[] | undefined;
  /** How many the version has: the list's length once it is whole. */
  total: number;
  /** Only the first page is there, the whole list still coming (it is the source of truth once in). */
  partial: boolean;
}

/**
 * The whole list when it is there; else the first page (whole too when it holds them all); else nothing.
 */
export function shownComments(whole: Comment[] | undefined, first: FirstComments | undefined): ShownComments {
  if (whole) return { comments: whole, total: whole.length, partial: false };
  if (first)
    return { comments: first.comments, total: first.total, partial: first.comments.length < first.total };
  return { comments: undefined, total: 0, partial: false };
}

/**
 * A version's comments for its review page. A member's first page is read first and shown; the whole list
 * is asked for once the page is in (or could not be read) and `wholeAfter` holds — the review page passes
 * whether its content's address (the pins' picture) is in — so the list's read (at 10,000 comments, 10 MB
 * for the server to send and the browser to parse, a long task) comes after the first cards and pins, not
 * before or beside them. A list already kept is shown at once (and refreshed), with no first page.
 * Realtime events and answers write into the whole list (`upsertComment`...), which replaces the page.
 */
export function useVersionComments(
  scope: CommentScope,
  enabled = true,
  wholeAfter = true,
): ShownComments & { isPending: boolean } {
  const queryClient = useQueryClient();
  // Read on each render: this hook observes the list, so it renders again when the list comes.
  const wholeKept = queryClient.getQueryData(commentsKey(scope)) !== undefined;
  const paged = readsFirstPage(scope);
  const first = useQuery({
    queryKey: firstCommentsKey(scope),
    queryFn: readFirstComments(scope),
    enabled: enabled && paged && !wholeKept,
  });
  const firstDone = first.isError || (first.data !== undefined && wholeAfter);
  const whole = useComments(scope, enabled && (!paged || wholeKept || firstDone));
  const shown = shownComments(whole.data, first.data);
  return { ...shown, isPending: shown.comments === undefined && whole.isPending };
}

/**
 * Starts a member's read of a version's comments while its project is still loading (the review page waits
 * for the project before it mounts the list): the first page when the list is not kept (the page asks for
 * the whole list once that is in, useVersionComments), else the list, refreshed. A refusal is left for the
 * project's own read to tell.
 */
export function usePrefetchComments(projectId: string, versionId: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!projectId || !versionId) return;
    const scope = { projectId, versionId };
    if (queryClient.getQueryData(commentsKey(scope)) === undefined)
      void queryClient.prefetchQuery({
        queryKey: firstCommentsKey(scope),
        queryFn: readFirstComments(scope),
      });
    else void queryClient.prefetchQuery({ queryKey: commentsKey(scope), queryFn: readComments(scope) });
  }, [queryClient, projectId, versionId]);
}

/** Whether this tab knows a comment already (in its version's cached list). */
function isListed(queryClient: QueryClient, scope: CommentScope, commentId: string): boolean {
  return Boolean(
    queryClient.getQueryData<Comment[]>(commentsKey(scope))?.some((entry) => entry.id === commentId),
  );
}

/**
 * Puts a comment into its version's list (replacing the copy there), in creation order. A comment new to
 * this tab also counts on its version (the project's cached pages), so no refetch is needed for that.
 */
export function upsertComment(queryClient: QueryClient, scope: CommentScope, comment: Comment): void {
  if (!isListed(queryClient, scope, comment.id)) countComments(queryClient, scope, +1);
  queryClient.setQueryData<Comment[]>(commentsKey(scope), (list) => {
    if (!list) return list;
    const rest = list.filter((entry) => entry.id !== comment.id);
    return [...rest, comment].sort(byCreation);
  });
  // Shown while the list comes: a comment of its page reads as it now does (a new one waits for the list,
  // whose read the event restarts).
  editFirstPage(queryClient, scope, (page) => ({
    ...page,
    comments: page.comments.map((entry) => (entry.id === comment.id ? comment : entry)),
  }));
}

/** Takes a comment out of its version's list (and its version's count, once). */
export function removeComment(queryClient: QueryClient, scope: CommentScope, commentId: string): void {
  const list = queryClient.getQueryData<Comment[]>(commentsKey(scope));
  if (!list || list.some((entry) => entry.id === commentId)) countComments(queryClient, scope, -1);
  queryClient.setQueryData<Comment[]>(commentsKey(scope), (current) =>
    current?.filter((entry) => entry.id !== commentId),
  );
  editFirstPage(queryClient, scope, (page) =>
    page.comments.some((entry) => entry.id === commentId)
      ? { comments: page.comments.filter((entry) => entry.id !== commentId), total: page.total - 1 }
      : page,
  );
}

/** Edits a version's first page, when one is kept and the whole list is not in yet. */
function editFirstPage(
  queryClient: QueryClient,
  scope: CommentScope,
  edit: (page: FirstComments) => FirstComments,
): void {
  if (!readsFirstPage(scope) || queryClient.getQueryData(commentsKey(scope)) !== undefined) return;
  queryClient.setQueryData<FirstComments>(firstCommentsKey(scope), (page) => page && edit(page));
}

/** Versions carry their number of comments: kept in step in the cached project, without a request. */
function countComments(queryClient: QueryClient, scope: CommentScope, delta: number): void {
  // A slide's count is its comments in the list (commentsPerSlide); a guest's view counts none.
  if (scope.guestIdentity !== undefined || scope.slides) return;
  queryClient.setQueryData<ProjectDetail>(projectKey(scope.projectId), (project) =>
    project
      ? {
          ...project,
          pages: project.pages.map((page) => ({
            ...page,
            versions: page.versions.map((version) =>
              version.id === scope.versionId
                ? { ...version, numberOfComments: Math.max(0, version.numberOfComments + delta) }
                : version,
            ),
          })),
        }
      : project,
  );
}

export const byCreation = (a: Comment, b: Comment) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1;

function useCommentWrite<Input, Result extends Comment | null>(
  scope: CommentScope,
  write: (input: Input) => Promise<{ data: Result }>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: ({ data }) => {
      if (data) upsertComment(queryClient, scope, data);
    },
    // Attachments past the owner's storage (402) show the upgrade prompt.
    onError: (error) => {
      if (!showPlanRefusal(error)) snackbar.error(errorMessage(error));
    },
  });
}

export function useCreateComment(scope: CommentScope) {
  return useCommentWrite(scope, (input: NewComment) =>
    api<{ data: Comment }>(listPath(scope), { method: "POST", body: input, headers: guestHeaders(scope) }),
  );
}

/** A new comment on a slide: at a point of it, or on one of its objects (`objectId`); a guest's through the link. */
export function useCreateSlideComment(scope: CommentScope) {
  return useCommentWrite(scope, ({ slideId, ...input }: CreateSlideCommentInput & { slideId: string }) =>
    api<{ data: Comment }>(
      `${scope.guestIdentity === undefined ? "/api/projects" : "/api/share"}/${enc(scope.projectId)}/slides/${enc(slideId)}/comments`,
      { method: "POST", body: input, headers: guestHeaders(scope) },
    ),
  );
}

export function useReply(scope: CommentScope) {
  return useCommentWrite(
    scope,
    ({
      commentId,
      comment,
      attachments,
      video,
    }: {
      commentId: string;
      comment: string;
      attachments: Attachment[];
      video?: VideoInput;
    }) =>
      api<{ data: Comment }>(
        scope.guestIdentity === undefined
          ? `/api/comments/${enc(commentId)}/replies`
          : `/api/share/${enc(scope.projectId)}/comments/${enc(commentId)}/replies`,
        {
          method: "POST",
          body: { comment, attachments, ...(video && { video }) },
          headers: guestHeaders(scope),
        },
      ),
  );
}

export function useEditEntry(scope: CommentScope) {
  return useCommentWrite(
    scope,
    ({ commentId, entryId, comment }: { commentId: string; entryId: string; comment: string }) =>
      api<{ data: Comment | null }>(`/api/comments/${enc(commentId)}/entries/${enc(entryId)}`, {
        method: "PATCH",
        body: { comment },
      }),
  );
}

/** A change to a comment: resolved or not, its whole new target (a moved pin), how its target was found again. */
export interface CommentUpdate {
  isResolved?: boolean;
  target?: Target;
  anchorStatus?: AnchorStatus;
}

export function useUpdateComment(scope: CommentScope) {
  return useCommentWrite(scope, ({ commentId, ...update }: CommentUpdate & { commentId: string }) =>
    api<{ data: Comment | null }>(`/api/comments/${enc(commentId)}`, { method: "PATCH", body: update }),
  );
}

/** Deleting the first or only entry removes the whole comment (SPEC §4). */
export function useDeleteEntry(scope: CommentScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, entryId }: { commentId: string; entryId: string }) =>
      api<{ data: { commentDeleted: boolean } }>(`/api/comments/${enc(commentId)}/entries/${enc(entryId)}`, {
        method: "DELETE",
      }),
    onSuccess: ({ data }, { commentId, entryId }) => {
      if (data.commentDeleted) return removeComment(queryClient, scope, commentId);
      queryClient.setQueryData<Comment[]>(commentsKey(scope), (list) =>
        list?.map((entry) =>
          entry.id === commentId
            ? { ...entry, thread: entry.thread.filter((item) => item.id !== entryId) }
            : entry,
        ),
      );
    },
    onError: (error) => snackbar.error(errorMessage(error)),
  });
}

/** 'Copy unresolved comments' from the previous version into this one (SPEC §4). */
export function useCopyUnresolved(scope: CommentScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ data: { copied: number }; message?: string }>(
        `/api/versions/${enc(scope.versionId)}/comments/copy-unresolved`,
        { method: "POST" },
      ),
    onSuccess: ({ data, message }) => {
      if (data.copied === 0) snackbar.info(message ?? COMMENT_MESSAGES.noUnresolved);
      else snackbar.success(data.copied === 1 ? "1 comment copied." : `${data.copied} comments copied.`);
    },
    onError: () => snackbar.error(COMMENT_MESSAGES.pullFailed),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: commentsKey(scope) }),
        queryClient.invalidateQueries({ queryKey: PROJECTS_KEY }),
      ]),
  });
}
