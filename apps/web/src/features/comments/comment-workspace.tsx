/**
 * Comment mode (SPEC §2): the version in the middle with its pins, and the comments panel beside it.
 *
 * Snapshots: the overlay inside the sandboxed frame draws the pins and reports picks (frame protocol,
 * use-overlay-bridge.ts); images and PDF pages: pins over the picture (position-layer.tsx). A pick
 * opens the composer in the panel; the new comment then opens as a thread. `?id=` selects a comment
 * and scrolls to its pin. New comments from others wait as "N new" while this reviewer is typing.
 * Copied comments are re-anchored by the overlay: the outcome is saved once (PATCH anchorStatus), and
 * those needing review or not found are listed first, with "Keep here" (after stepping through the
 * candidate elements, candidate-picker.tsx) and "Move pin".
 */
import type {
  AnchoredStatus,
  Comment,
  FrameAnchor,
  FramePin,
  MentionPerson,
  OverlayToParentMessage,
  Version,
} from "@redline/shared";
import { MapPin, MapPinOff } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type ContentComments, VersionContent } from "../viewer/version-content.tsx";
import { type CandidateChoice, CandidatePicker } from "./candidate-picker.tsx";
import { CommentComposer } from "./comment-composer.tsx";
import { type CommentScope, useComments, useCreateComment, useUpdateComment } from "./comment-queries.ts";
import { CommentText, CommentThread, type ThreadAbilities, timeAgo } from "./comment-thread.tsx";
import { OldCrop } from "./old-crop.tsx";
import { useOverlayBridge } from "./use-overlay-bridge.ts";
import "./comments.css";

export const COMMENT_MODE_HINT =
  "Click on elements to post comment and give contextual feedback to your team.";

const GUEST_POLL_MS = 10_000;

type Filter = "all" | "unresolved" | "resolved";
type Pending =
  | { kind: "element"; anchor: FrameAnchor; dotPosition: { x: number; y: number }; deviceWidth: number }
  | { kind: "position"; x: number; y: number; pdfPage: number | null; deviceWidth: number };

export interface WorkspaceAbilities extends ThreadAbilities {
  /** May start a comment. */
  canComment: boolean;
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
  poll = false,
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
  /** Without a realtime socket (guests), re-read the comments now and then. */
  poll?: boolean;
}) {
  const isCommentMode = mode === "comment";
  const { data: all = [], isPending: isLoading } = useComments(
    scope,
    version.status === "ready",
    poll ? GUEST_POLL_MS : false,
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
  const savedStatus = useRef(new Set<string>());
  const numbers = useMemo(() => new Map(all.map((comment, index) => [comment.id, index + 1])), [all]);

  // "N new": others' comments that arrive while this reviewer types wait until they stop or ask.
  const drafts = useRef(new Set<string>());
  const [isTyping, setTyping] = useState(false);
  const setDraft = useCallback((key: string, hasDraft: boolean) => {
    if (hasDraft) drafts.current.add(key);
    else drafts.current.delete(key);
    setTyping(drafts.current.size > 0);
  }, []);
  const newDraft = useCallback((hasDraft: boolean) => setDraft("new", hasDraft), [setDraft]);
  const replyDraft = useCallback((hasDraft: boolean) => setDraft("reply", hasDraft), [setDraft]);
  const known = useRef<Set<string> | null>(null);
  const [held, setHeld] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (isLoading) return;
    const fresh = all.filter((comment) => !known.current?.has(comment.id));
    const isFirstLoad = known.current === null;
    known.current = new Set(all.map((comment) => comment.id));
    if (isFirstLoad || !isTyping) return;
    const others = fresh.filter((comment) => !isMine(comment));
    if (others.length > 0)
      setHeld((current) => new Set([...current, ...others.map((comment) => comment.id)]));
  }, [all, isLoading, isTyping, isMine]);
  useEffect(() => {
    if (!isTyping) setHeld(new Set());
  }, [isTyping]);
  const heldCount = all.filter((comment) => held.has(comment.id)).length;
  const shown = useMemo(() => all.filter((comment) => !held.has(comment.id)), [all, held]);

  const selected = shown.find((comment) => comment.id === selectedId) ?? null;
  const matchesFilter = (comment: Comment) =>
    filter === "all" || (filter === "resolved" ? comment.isResolved : !comment.isResolved);
  const listed = shown.filter(matchesFilter);
  // A deep link to a resolved comment shows resolved ones.
  useEffect(() => {
    if (selected?.isResolved && filter === "unresolved") setFilter("all");
    if (selected && !selected.isResolved && filter === "resolved") setFilter("all");
  }, [selected, filter]);

  const statusOf = (comment: Comment): AnchoredStatus | null =>
    anchored.get(comment.id) ?? comment.anchorStatus ?? null;
  const toReview = shown.filter((comment) => {
    const status = statusOf(comment);
    return !comment.isResolved && (status === "needs-review" || status === "orphaned");
  });

  // --- The overlay (snapshots) -------------------------------------------------------------------
  const isSnapshot = version.kind === "snapshot";
  const handleOverlay = (message: OverlayToParentMessage) => {
    switch (message.type) {
      case "pick:element": {
        const { anchor, dotPosition, deviceWidth } = message.payload;
        if (repinId) {
          update.mutate({ commentId: repinId, anchor, dotPosition, anchorStatus: "exact" });
          setAnchored((current) => new Map(current).set(repinId, "exact"));
          setRepinId(null);
          return;
        }
        if (!abilities.canComment) return;
        setPending({ kind: "element", anchor, dotPosition, deviceWidth: Math.round(deviceWidth) });
        onSelect(null);
        break;
      }
      case "pin:candidate": {
        const { id, index, anchor, dotPosition } = message.payload;
        setCandidates((current) => new Map(current).set(id, { index, anchor, dotPosition }));
        break;
      }
      case "pin:select":
        setPending(null);
        onSelect(message.payload.id);
        break;
      case "pins:anchored": {
        const results = new Map(message.payload.results.map((result) => [result.id, result.status]));
        setAnchored(results);
        setCandidateCounts(
          new Map(message.payload.results.map((result) => [result.id, result.candidates ?? 0])),
        );
        setCandidates(new Map());
        setAnchoredRound((round) => round + 1);
        break;
      }
    }
  };
  const bridge = useOverlayBridge(handleOverlay);
  const { post, generation } = bridge;

  const pinned = isCommentMode && pinsVisible ? shown.filter(matchesFilter) : [];
  const framePins: FramePin[] = useMemo(
    () =>
      pinned.map((comment) => ({
        id: comment.id,
        number: numbers.get(comment.id) ?? 0,
        anchor: comment.anchor,
        dotPosition: comment.dotPosition,
        isResolved: comment.isResolved,
        isSelected: comment.id === selectedId,
      })),
    [pinned, numbers, selectedId],
  );
  const pinsJson = JSON.stringify(framePins);
  useEffect(() => {
    if (!generation || !isSnapshot) return;
    post("pins:set", { pins: JSON.parse(pinsJson) as FramePin[] });
  }, [generation, isSnapshot, pinsJson, post]);
  useEffect(() => {
    if (!generation) return;
    post("overlay:mode", {
      mode: isCommentMode && (abilities.canComment || repinId !== null) ? "comment" : "browse",
    });
  }, [generation, isCommentMode, abilities.canComment, repinId, post]);
  useEffect(() => {
    if (generation) post("pins:visible", { visible: isCommentMode && pinsVisible });
  }, [generation, isCommentMode, pinsVisible, post]);
  useEffect(() => {
    if (!generation) return;
    post(
      "pending:set",
      pending?.kind === "element" ? { anchor: pending.anchor, dotPosition: pending.dotPosition } : null,
    );
  }, [generation, pending, post]);

  // Scroll to the selected pin once it is placed (deep links wait for anchoring).
  const focused = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new document needs the focus again
  useEffect(() => {
    focused.current = null;
  }, [generation]);
  useEffect(() => {
    if (!selectedId) {
      focused.current = null;
      return;
    }
    if (focused.current === selectedId) return;
    if (isSnapshot) {
      const status = anchored.get(selectedId);
      if (!generation || !status || status === "orphaned") return;
      post("pin:focus", { id: selectedId });
      focused.current = selectedId;
    } else {
      const pin = document.querySelector(`[data-comment-id="${CSS.escape(selectedId)}"]`);
      if (!pin) return;
      pin.scrollIntoView({ block: "center", inline: "center" });
      focused.current = selectedId;
    }
  });

  // Save how copied comments were re-anchored, once each, by someone who may change them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per anchoring round
  useEffect(() => {
    if (!abilities.canResolve) return;
    for (const comment of all) {
      const status = anchored.get(comment.id);
      if (!status || comment.anchorStatus !== null || !comment.copiedFromVersion) continue;
      if (savedStatus.current.has(comment.id)) continue;
      savedStatus.current.add(comment.id);
      update.mutate({ commentId: comment.id, anchorStatus: status });
    }
  }, [anchoredRound]);

  // --- Images and PDF pages ----------------------------------------------------------------------
  const contentComments: ContentComments | undefined = isCommentMode
    ? {
        frameRef: bridge.frameRef,
        pins: pinned.map((comment) => ({
          id: comment.id,
          number: numbers.get(comment.id) ?? 0,
          x: comment.dotPosition.x,
          y: comment.dotPosition.y,
          pdfPage: comment.pdfPage,
          isResolved: comment.isResolved,
          isSelected: comment.id === selectedId,
        })),
        pending: pending?.kind === "position" ? pending : null,
        onPick: abilities.canComment
          ? (point, pdfPage) => {
              setPending({
                kind: "position",
                ...point,
                pdfPage,
                deviceWidth: Math.max(100, Math.round(window.innerWidth)),
              });
              onSelect(null);
            }
          : undefined,
        onSelect: (id) => {
          setPending(null);
          onSelect(id);
        },
      }
    : undefined;

  const submitNew = async ({
    comment,
    attachments,
  }: {
    comment: string;
    attachments: Comment["thread"][0]["attachments"];
  }) => {
    if (!pending) return;
    const { data } = await create.mutateAsync(
      pending.kind === "element"
        ? {
            anchor: pending.anchor,
            dotPosition: pending.dotPosition,
            deviceWidth: pending.deviceWidth,
            comment,
            attachments,
          }
        : {
            dotPosition: { x: pending.x, y: pending.y },
            ...(pending.pdfPage !== null && { pdfPage: pending.pdfPage }),
            deviceWidth: pending.deviceWidth,
            comment,
            attachments,
          },
    );
    setPending(null);
    known.current?.add(data.id);
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
      <VersionContent
        key={version.id}
        versionId={version.id}
        width={device.width}
        height={device.height}
        comments={contentComments}
        {...contentProps}
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
        <div className="activity__head">
          <h2 id="activity-title" className="activity__title">
            {panelTitle}
          </h2>
          <span className="activity__count">{shown.length}</span>
          <span className="thread__spacer" />
          {heldCount > 0 ? (
            <button
              type="button"
              className="btn btn--primary activity__new"
              aria-label={`Show ${heldCount} new ${heldCount === 1 ? "comment" : "comments"}`}
              onClick={() => setHeld(new Set())}
            >
              {heldCount} new
            </button>
          ) : null}
          <select
            className="input activity__filter"
            aria-label="Show comments"
            value={filter}
            onChange={(event) => setFilter(event.target.value as Filter)}
          >
            <option value="all">All comments</option>
            <option value="unresolved">Unresolved</option>
            <option value="resolved">Resolved</option>
          </select>
        </div>
        {pending ? (
          <section className="activity__new-comment" aria-label="New comment">
            <p className="activity__hint">
              {pending.kind === "element"
                ? `New comment on ‹${tagOf(pending.anchor)}›`
                : pending.pdfPage
                  ? `New comment on page ${pending.pdfPage}`
                  : "New comment on the image"}
            </p>
            <CommentComposer
              key={JSON.stringify(pending)}
              label="Write a comment"
              submitLabel="Comment"
              people={people}
              projectId={scope.projectId}
              allowAttachments={abilities.canAttach}
              autoFocus
              isPending={create.isPending}
              onSubmit={submitNew}
              onCancel={() => setPending(null)}
              onDraftChange={newDraft}
            />
          </section>
        ) : null}
        {selected ? (
          <CommentThread
            key={selected.id}
            comment={selected}
            number={numberOf(selected)}
            scope={scope}
            people={people}
            abilities={abilities}
            onBack={() => onSelect(null)}
            onDraftChange={replyDraft}
          />
        ) : (
          <div className="activity__body">
            {toReview.length > 0 ? (
              <section className="review-list" aria-labelledby="review-list-title">
                <h3 id="review-list-title" className="review-list__title">
                  Check these pins
                </h3>
                <p className="activity__hint">
                  These comments were copied from the previous version and their element changed or is gone.
                </p>
                <ul className="comment-list">
                  {toReview.map((comment) => {
                    const status = statusOf(comment);
                    return (
                      <li key={comment.id} className="comment-card comment-card--review">
                        <button
                          type="button"
                          className="comment-card__open"
                          onClick={() => onSelect(comment.id)}
                        >
                          <span className="comment-card__number">{numberOf(comment)}</span>
                          <span className="comment-card__excerpt">
                            <CommentText text={comment.thread[0]?.comment ?? ""} people={people} />
                          </span>
                        </button>
                        <span className={status === "orphaned" ? "tag tag--danger" : "tag tag--warning"}>
                          {status === "orphaned" ? "Element not found" : "Needs review"}
                        </span>
                        {status === "orphaned" && comment.anchor && !scope.guestIdentity ? (
                          <OldCrop comment={comment} />
                        ) : null}
                        {abilities.canResolve && isSnapshot ? (
                          <div className="comment-card__actions">
                            {status === "needs-review" ? (
                              <CandidatePicker
                                count={candidateCounts.get(comment.id) ?? 0}
                                index={candidates.get(comment.id)?.index ?? 0}
                                onShow={(index) => post("pin:candidate", { id: comment.id, index })}
                                onKeep={() => {
                                  const choice = candidates.get(comment.id);
                                  update.mutate(
                                    choice && choice.index > 0
                                      ? {
                                          commentId: comment.id,
                                          anchor: choice.anchor,
                                          dotPosition: choice.dotPosition,
                                          anchorStatus: "exact",
                                        }
                                      : { commentId: comment.id, anchorStatus: "exact" },
                                  );
                                  setAnchored((current) => new Map(current).set(comment.id, "exact"));
                                }}
                              />
                            ) : null}
                            <button
                              type="button"
                              className="btn"
                              onClick={() => {
                                setPending(null);
                                setRepinId(comment.id);
                              }}
                            >
                              Move pin
                            </button>
                          </div>
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
              </section>
            ) : null}
            {isLoading ? (
              <p className="activity__hint">Loading comments...</p>
            ) : listed.length === 0 ? (
              <div className="activity__empty">
                <p className="activity__empty-title">
                  {shown.length === 0 ? "No comments yet" : `No ${filter} comments`}
                </p>
                {abilities.canComment ? <p className="activity__hint">{COMMENT_MODE_HINT}</p> : null}
              </div>
            ) : (
              <ul className="comment-list" aria-label="Comments">
                {listed.map((comment) => {
                  const first = comment.thread[0];
                  const replies = comment.thread.length - 1;
                  return (
                    <li key={comment.id} className="comment-card">
                      <button
                        type="button"
                        className="comment-card__open"
                        aria-label={`Comment ${numberOf(comment)} by ${first?.author.displayName ?? ""}`}
                        onClick={() => onSelect(comment.id)}
                      >
                        <span className="comment-card__number">{numberOf(comment)}</span>
                        <span className="comment-card__main">
                          <span className="comment-card__meta">
                            <span className="comment-card__author">{first?.author.displayName}</span>
                            {first ? (
                              <time dateTime={first.createdAt}>{timeAgo(first.createdAt)}</time>
                            ) : null}
                          </span>
                          <span className="comment-card__excerpt">
                            <CommentText text={first?.comment ?? ""} people={people} />
                          </span>
                          <span className="comment-card__meta">
                            {replies > 0 ? (
                              <span>{replies === 1 ? "1 reply" : `${replies} replies`}</span>
                            ) : null}
                            {comment.isResolved ? <span className="tag tag--success">Resolved</span> : null}
                            {comment.deviceSize === "mobile" ? <span className="tag">Mobile</span> : null}
                            {comment.pdfPage ? <span className="tag">Page {comment.pdfPage}</span> : null}
                          </span>
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        )}
      </aside>
    </>
  );
}

function tagOf(anchor: FrameAnchor): string {
  const tag = anchor.fingerprint.tag;
  return typeof tag === "string" ? tag : "element";
}
