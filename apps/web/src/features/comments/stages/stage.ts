/**
 * One stage adapter per kind of content (issue #29 item 2): each draws its content with the comments'
 * pins, turns a reviewer's click into a target (packages/shared targets.ts) and, where its targets can be
 * found again on a new version, reports how each pin was found. Comment mode (comment-workspace.tsx) holds
 * no branch on the content's kind: it asks `stageFor(version.kind)`. A new kind of content is one adapter
 * here (and its server part: which targets the content takes, `targetMismatch`).
 */
import type { AnchoredStatus, Comment, Target, Version } from "@redline/shared";
import type { ComponentType } from "react";
import type { VersionViewState } from "../../../components/stage/version-content.tsx";
import type { CandidateChoice } from "../candidate-picker.tsx";

/** How a pin's target was found on this version, and how many other candidates it has. */
export interface FoundPin {
  id: string;
  status: AnchoredStatus;
  candidates: number;
}

export interface StageProps {
  version: Version;
  view: VersionViewState;
  /** Device size (snapshots). */
  width: number;
  height: number | null;
  onRetry?: () => void;
  isRetrying?: boolean;
  /** Comment mode: pins drawn, clicks picked; otherwise the content alone (preview). */
  isCommentMode: boolean;
  /** The comments whose pins show (none while pins are hidden). */
  pins: readonly Comment[];
  pinsVisible: boolean;
  numbers: ReadonlyMap<string, number>;
  selectedId: string | null;
  /** Whether a click picks a target (the reader may comment, or is moving a pin). */
  canPick: boolean;
  /** The target picked for the comment being written. */
  pending: Target | null;
  onPick(target: Target, deviceWidth: number): void;
  onSelect(id: string): void;
  /** How each pin was found (stages that find targets again). */
  found: ReadonlyMap<string, AnchoredStatus>;
  onFound?: (pins: FoundPin[]) => void;
  onCandidate?: (id: string, choice: CandidateChoice) => void;
  /** A candidate of a pin that needs review to show now (`seq` tells a repeated request apart). */
  showCandidate: { id: string; index: number; seq: number } | null;
}

export interface StageAdapter {
  Stage: ComponentType<StageProps>;
  /** Its pins' targets are found again on a new version: the review list may move a pin or keep a candidate. */
  refinds: boolean;
  /** What the new comment's composer says of the picked target. */
  describe(target: Target): string;
}
