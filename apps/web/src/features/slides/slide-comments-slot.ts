/**
 * What the slide editor hands the panel of a slide's comments, and the panel it is handed by its page
 * (pages compose features: the panel is the comments feature's, features/comments/slide-comments-panel.tsx).
 */
import type { Comment, Slide } from "@redline/shared";
import type { ReactNode } from "react";
import type { CommentScope } from "../comments/comment-queries.ts";
import type { SlideTarget } from "../comments/stages/slide-target.ts";

/** A comment being placed: its target (its slide, the object it is on if any, and where). */
export type PendingSlideComment = SlideTarget;

export interface SlideCommentsPanelProps {
  /** Where the slide comments are read and written: a member's, or a guest's through the public link. */
  scope: CommentScope;
  /** Whether this reader may pin comments (a member's right, or the link allowing guests' comments). */
  canComment: boolean;
  slide: Slide | undefined;
  comments: readonly Comment[];
  numbers: Map<string, number>;
  isLoading: boolean;
  isError: boolean;
  openId: string | null;
  onOpen(commentId: string | null): void;
  /** Whether the next click on the slide places a comment. */
  placing: boolean;
  onPlace(placing: boolean): void;
  pending: PendingSlideComment | null;
  onCancelPending(): void;
}

/** Renders the panel of the current slide's comments (given by the page that shows the editor). */
export type SlideCommentsPanelSlot = (props: SlideCommentsPanelProps) => ReactNode;
