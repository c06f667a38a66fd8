/**
 * What the slide editor hands the panel of a slide's comments, and the panel it is handed by its page
 * (pages compose features: the panel is the comments feature's, features/comments/slide-comments-panel.tsx).
 */
import type { Comment, MentionPerson, ProjectDetail, Slide } from "@redline/shared";
import type { ReactNode } from "react";

/** A comment being placed: its slide, the object it is on (if any) and where. */
export interface PendingSlideComment {
  slideId: string;
  objectId: string | null;
  dotPosition: { x: number; y: number };
}

export interface SlideCommentsPanelProps {
  project: ProjectDetail;
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
  people: MentionPerson[];
}

/** Renders the panel of the current slide's comments (given by the page that shows the editor). */
export type SlideCommentsPanelSlot = (props: SlideCommentsPanelProps) => ReactNode;
