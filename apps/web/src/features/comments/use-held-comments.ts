/**
 * "N new" (SPEC §4, after Hypothesis): comments from others that arrive while this reviewer is typing
 * wait instead of jumping under their cursor, until the reviewer stops typing or asks to see them.
 * The reviewer's own new comments never wait.
 */
import type { Comment } from "@redline/shared";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";

export interface HeldComments {
  /** The comments to show (all but the held ones). */
  shown: Comment[];
  heldCount: number;
  /** Show the held comments now. */
  release(): void;
  /** Report whether the new-comment composer holds a draft. */
  setNewDraft(hasDraft: boolean): void;
  /** Report whether the reply composer holds a draft. */
  setReplyDraft(hasDraft: boolean): void;
  /** A comment this tab just wrote: never held. */
  markKnown(id: string): void;
}

export function useHeldComments(
  all: Comment[],
  isLoading: boolean,
  isMine: (comment: Comment) => boolean,
): HeldComments {
  const drafts = useRef(new Set<string>());
  const [isTyping, setTyping] = useState(false);
  const setDraft = useCallback((key: string, hasDraft: boolean) => {
    if (hasDraft) drafts.current.add(key);
    else drafts.current.delete(key);
    setTyping(drafts.current.size > 0);
  }, []);
  const setNewDraft = useCallback((hasDraft: boolean) => setDraft("new", hasDraft), [setDraft]);
  const setReplyDraft = useCallback((hasDraft: boolean) => setDraft("reply", hasDraft), [setDraft]);
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
  const shown = useMemo(() => all.filter((comment) => !held.has(comment.id)), [all, held]);
  return {
    shown,
    heldCount: all.length - shown.length,
    release: useCallback(() => setHeld(new Set()), []),
    setNewDraft,
    setReplyDraft,
    markKnown: useCallback((id: string) => void known.current?.add(id), []),
  };
}
