import type { VersionKind } from "@redline/shared";
import { pictureStage } from "./picture-stage.tsx";
import { snapshotStage } from "./snapshot-stage.tsx";
import type { StageAdapter } from "./stage.ts";

export type { FoundPin, StageAdapter, StageProps } from "./stage.ts";

const STAGES: Record<VersionKind, StageAdapter> = {
  snapshot: snapshotStage,
  screenshot: pictureStage,
  image: pictureStage,
  pdf: pictureStage,
};

/** The stage adapter of a version's kind of content. */
export function stageFor(kind: VersionKind): StageAdapter {
  return STAGES[kind];
}
