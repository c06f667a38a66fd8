/**
 * Comment mode (SPEC §2): the version in the middle with its pins, and the comments panel beside it.
 *
 * The stage is the version's stage adapter (stages/: a snapshot's overlay, pins over an image or a PDF
 * page), which turns a click into a target; the workspace has no branch on the kind of content. A pick
 * opens the composer in the panel; the new comment then opens as a thread. `?id=` selects a comment
 * and scrolls to its pin. New comments from others wait as "N new" while this reviewer is typing.
 * Copied comments are re-anchored by the overlay: the outcome is saved once (PATCH anchorStatus), and
 * those needing review or not found are listed first, with "Keep here" (after stepping through the
 * candidate elements, candidate-picker.tsx) and "Move pin". A guest of the public link (a scope with
 * `guestIdentity`) follows the link's comments through the guest socket (use-guest-comments-realtime.ts);
 * members follow theirs through the project's room (use-project-realtime.ts, mounted by the review view).
 */
import type { AnchoredStatus, Comment, MentionPerson, Target, Version } from "@redline/shared";
import { MapPin, MapPinOff } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { ActivityHead, type Filter } from "./activity-head.tsx";
import type { CandidateChoice } from "./candidate-picker.tsx";
import type { ComposerSubmit } from "./comment-composer.tsx";
import { CommentList } from "./comment-list.tsx";
import {
  type CommentScope,
  useCreateComment,
  useUpdateComment,
  useVersionComments,
  videoTargetOf,
} from "./comment-queries.ts";
import { CommentThread } from "./comment-thread.tsx";
import { NewComment, type Pending } from "./new-comment.tsx";
import { ReviewList } from "./review-list.tsx";
import { type FoundPin, stageFor } from "./stages/index.ts";
import { useSaveAnchorStatus } from "./use-anchor-status.ts";
import { useGuestCommentsRealtime } from "./use-guest-comments-realtime.ts";
import { useHeldComments } from "./use-held-comments.ts";
import "./comments.css";
import { useVersionView } from "../viewer/version-queries.ts";

export const COMMENT_MODE_HINT =
  "Click on elements to post comment and give contextual feedback to your team.";

/**
 * What the reader may do before any comment exists (from the project's or the link's abilities); what
 * they may do with a comment comes with the comment (`comment.abilities`, `entry.abilities`).
 */
export interface WorkspaceAbilities {
  /** May start a comment. */
  canComment: boolean;
  /** May attach files to a new comment. */
  canAttach: boolean;
  /** A project member's view (task-tracker card links show); `true`: may also create cards. */
  canManageIntegrations?: boolean;
}

export function CommentWorkspace({
  scope,
  version,
  mode,
  device,
  abilities,
  people,
  panelTitle,
  isMine,
  showPanel = true,
  selectedId,
  onSelect,
  contentProps,
  note,
}: {
  /** The line above the version (what this mode does). */
  note?: string;
  scope: CommentScope;
  version: Version;
  /** preview: the page alone, no pins, no panel. */
  mode: "comment" | "preview";
  device: { width: number; height: number | null };
  abilities: WorkspaceAbilities;
  people: MentionPerson[] | null;
  panelTitle: string;
  /** Whether a comment is this reviewer's own (their new ones never wait as "N new"). */
  isMine(comment: Comment): boolean;
  /** The versions panel may take the panel's place. */
  showPanel?: boolean;
  selectedId: string | null;
  onSelect(id: string | null): void;
  /** Passed through to VersionContent (retry, public link). */
  contentProps: { shareProjectId?: string; onRetry?: () => void; isRetrying?: boolean };
}) {
  const versionView = useVersionView(version.id, contentProps.shareProjectId);
  const isCommentMode = mode === "comment";
  // A member's first page shows while the whole list comes (`partial`, asked for once the content's address
  // is in): "N new" and the empty states wait for the list, and the panel counts the version's total.
  const {
    comments: all = [],
    isPending: isLoading,
    total,
    partial,
  } = useVersionComments(
    scope,
    version.status === "ready",
    versionView.data !== undefined || versionView.isError,
  );
  useGuestCommentsRealtime(
    scope.projectId,
    scope.guestIdentity ?? "",
    scope.guestIdentity !== undefined && isCommentMode,
  );
  const create = useCreateComment(scope);
  const update = useUpdateComment(scope);
  const [filter, setFilter] = useState<Filter>("all");
  const [pinsVisible, setPinsVisible] = useState(true);
  const [pending, setPending] = useState<Pending | null>(null);
  const [repinId, setRepinId] = useState<string | null>(null);
  const [anchored, setAnchored] = useState<Map<string, AnchoredStatus>>(new Map());
  // Pins that need review: how many candidates the overlay offers, and the one shown if not the best.
  const [candidateCounts, setCandidateCounts] = useState<Map<string, number>>(new Map());
  const [candidates, setCandidates] = useState<Map<string, CandidateChoice>>(new Map());
  const [anchoredRound, setAnchoredRound] = useState(0);
  const numbers = useMemo(() => new Map(all.map((comment, index) => [comment.id, index + 1])), [all]);

  const { shown, heldCount, release, setNewDraft, setReplyDraft, markKnown } = useHeldComments(
    all,
    isLoading || partial,
    isMine,
  );

  const selected = shown.find((comment) => comment.id === selectedId) ?? null;
  // The comment last opened: the list scrolls back to it when its thread closes.
  const [lastOpened, setLastOpened] = useState<string | null>(null);
  useEffect(() => {
    if (selectedId) setLastOpened(selectedId);
  }, [selectedId]);
  // Per-comment work is done once per change of the comments, not on every render (a keystroke in a
  // composer re-renders this): a version may hold 10,000 comments.
  const listed = useMemo(
    () =>
      filter === "all"
        ? shown
        : shown.filter((comment) => (filter === "resolved" ? comment.isResolved : !comment.isResolved)),
    [shown, filter],
  );
  // A deep link to a resolved comment shows resolved ones.
  useEffect(() => {
    if (selected?.isResolved && filter === "unresolved") setFilter("all");
    if (selected && !selected.isResolved && filter === "resolved") setFilter("all");
  }, [selected, filter]);

  const statusOf = (comment: Comment): AnchoredStatus | null =>
    anchored.get(comment.id) ?? comment.anchorStatus ?? null;
  const toReview = useMemo(
    () =>
      shown.filter((comment) => {
        const status = anchored.get(comment.id) ?? comment.anchorStatus ?? null;
        return !comment.isResolved && (status === "needs-review" || status === "orphaned");
      }),
    [shown, anchored],
  );

  // --- The stage: this kind of content's adapter (stages/) ---------------------------------------
  const adapter = stageFor(version.kind);
  const [showCandidate, setShowCandidate] = useState<{ id: string; index: number; seq: number } | null>(null);
  const pinned = useMemo(
    () => (isCommentMode && pinsVisible ? listed : []),
    [isCommentMode, pinsVisible, listed],
  );
  const handlePick = (target: Target, deviceWidth: number) => {
    if (repinId) {
      update.mutate({ commentId: repinId, target, anchorStatus: "exact" });
      setAnchored((current) => new Map(current).set(repinId, "exact"));
      setRepinId(null);
      return;
    }
    if (!abilities.canComment) return;
    setPending({ target, deviceWidth });
    onSelect(null);
  };
  const handleFound = (found: FoundPin[]) => {
    setAnchored(new Map(found.map((pin) => [pin.id, pin.status])));
    setCandidateCounts(new Map(found.map((pin) => [pin.id, pin.candidates])));
    setCandidates(new Map());
    setAnchoredRound((round) => round + 1);
  };

  useSaveAnchorStatus({
    comments: all,
    anchored,
    round: anchoredRound,
    save: (commentId, anchorStatus) => update.mutate({ commentId, anchorStatus }),
  });

  const submitNew = async ({ comment, attachments, video }: ComposerSubmit) => {
    if (!pending) return;
    const { data } = await create.mutateAsync({
      target: pending.target,
      deviceWidth: pending.deviceWidth,
      comment,
      attachments,
      ...(video && { video }),
    });
    setPending(null);
    markKnown(data.id);
    onSelect(data.id);
  };

  const stage = (
    <main className="review__stage">
      {note && !repinId ? (
        <p className="review__note" role="note">
          {note}
        </p>
      ) : null}
      {repinId ? (
        <p className="review__note review__note--action" role="status">
          Click the element this comment belongs to.{" "}
          <button type="button" className="link" onClick={() => setRepinId(null)}>
            Cancel
          </button>
        </p>
      ) : null}
      <adapter.Stage
        key={version.id}
        version={version}
        view={versionView}
        width={device.width}
        height={device.height}
        onRetry={contentProps.onRetry}
        isRetrying={contentProps.isRetrying}
        isCommentMode={isCommentMode}
        pins={pinned}
        pinsVisible={pinsVisible}
        numbers={numbers}
        selectedId={selectedId}
        canPick={isCommentMode && (abilities.canComment || repinId !== null)}
        pending={pending?.target ?? null}
        onPick={handlePick}
        onSelect={(id) => {
          setPending(null);
          onSelect(id);
        }}
        found={anchored}
        onFound={handleFound}
        onCandidate={(id, choice) => setCandidates((current) => new Map(current).set(id, choice))}
        showCandidate={showCandidate}
      />
      {isCommentMode && version.status === "ready" ? (
        <div className="stage-bar">
          <button
            type="button"
            className="icon-btn"
            aria-pressed={!pinsVisible}
            aria-label={pinsVisible ? "Hide pins" : "Show pins"}
            title={pinsVisible ? "Hide pins" : "Show pins"}
            onClick={() => setPinsVisible((visible) => !visible)}
          >
            {pinsVisible ? <MapPin size={18} aria-hidden /> : <MapPinOff size={18} aria-hidden />}
          </button>
        </div>
      ) : null}
    </main>
  );

  if (!isCommentMode || !showPanel || version.status !== "ready") return stage;

  const numberOf = (comment: Comment) => numbers.get(comment.id) ?? 0;
  return (
    <>
      {stage}
      <aside className="activity" aria-labelledby="activity-title">
        <ActivityHead
          title={panelTitle}
          count={partial ? total : shown.length}
          heldCount={heldCount}
          onRelease={release}
          filter={filter}
          onFilter={setFilter}
        />
        {pending ? (
          <NewComment
            pending={pending}
            description={adapter.describe(pending.target)}
            people={people}
            projectId={scope.projectId}
            allowAttachments={abilities.canAttach}
            videoTarget={videoTargetOf(scope, abilities.canAttach)}
            isPending={create.isPending}
            onSubmit={submitNew}
            onCancel={() => setPending(null)}
            onDraftChange={setNewDraft}
          />
        ) : null}
        {selected ? (
          <CommentThread
            key={selected.id}
            comment={selected}
            number={numberOf(selected)}
            scope={scope}
            people={people}
            onBack={() => onSelect(null)}
            onDraftChange={setReplyDraft}
            canManageIntegrations={abilities.canManageIntegrations}
          />
        ) : (
          <div className="activity__body">
            {toReview.length > 0 ? (
              <ReviewList
                comments={toReview}
                statusOf={statusOf}
                numberOf={numberOf}
                people={people}
                canFix={adapter.refinds}
                showOldCrop={!scope.guestIdentity}
                candidateCount={(id) => candidateCounts.get(id) ?? 0}
                candidate={(id) => candidates.get(id)}
                onSelect={onSelect}
                onShowCandidate={(id, index) =>
                  setShowCandidate((current) => ({ id, index, seq: (current?.seq ?? 0) + 1 }))
                }
                onKeep={(comment, choice) => {
                  update.mutate(
                    choice && choice.index > 0
                      ? {
                          commentId: comment.id,
                          target: { kind: "element", anchor: choice.anchor, point: choice.dotPosition },
                          anchorStatus: "exact",
                        }
                      : { commentId: comment.id, anchorStatus: "exact" },
                  );
                  setAnchored((current) => new Map(current).set(comment.id, "exact"));
                }}
                onMove={(id) => {
                  setPending(null);
                  setRepinId(id);
                }}
              />
            ) : null}
            {isLoading || (partial && listed.length === 0) ? (
              <p className="activity__hint">Loading comments...</p>
            ) : listed.length === 0 ? (
              <div className="activity__empty">
                <p className="activity__empty-title">
                  {shown.length === 0 ? "No comments yet" : `No ${filter} comments`}
                </p>
                {abilities.canComment ? <p className="activity__hint">{COMMENT_MODE_HINT}</p> : null}
              </div>
            ) : (
              <CommentList
                comments={listed}
                numberOf={numberOf}
                people={people}
                onSelect={onSelect}
                focusId={lastOpened}
              />
            )}
          </div>
        )}
      </aside>
    </>
  );
}
