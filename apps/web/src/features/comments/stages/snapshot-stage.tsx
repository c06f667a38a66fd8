/**
 * A captured web page: the overlay inside the sandboxed frame draws the pins, finds each pin's element
 * again (re-anchoring) and reports a click as an element target (frame protocol, lib/use-overlay-bridge.ts,
 * use-overlay-pins.ts).
 */
import type { OverlayToParentMessage, Target } from "@redline/shared";
import { useEffect } from "react";
import { VersionContent } from "../../../components/stage/version-content.tsx";
import { useOverlayBridge } from "../../../lib/use-overlay-bridge.ts";
import { useOverlayPins } from "../use-overlay-pins.ts";
import type { StageAdapter, StageProps } from "./stage.ts";

function SnapshotStage(props: StageProps) {
  const { onPick, onSelect, onFound, onCandidate } = props;
  const handle = (message: OverlayToParentMessage) => {
    switch (message.type) {
      case "pick:element": {
        if (!props.canPick) return;
        const { anchor, dotPosition, deviceWidth } = message.payload;
        onPick({ kind: "element", anchor, point: dotPosition }, Math.round(deviceWidth));
        break;
      }
      case "pin:candidate": {
        const { id, index, anchor, dotPosition } = message.payload;
        onCandidate?.(id, { index, anchor, dotPosition });
        break;
      }
      case "pin:select":
        onSelect(message.payload.id);
        break;
      case "pins:anchored":
        onFound?.(
          message.payload.results.map((result) => ({
            id: result.id,
            status: result.status,
            candidates: result.candidates ?? 0,
          })),
        );
        break;
    }
  };
  const bridge = useOverlayBridge(handle);
  const { post } = bridge;
  const pending = props.pending?.kind === "element" ? props.pending : null;
  useOverlayPins({
    bridge,
    pins: props.pins,
    numbers: props.numbers,
    selectedId: props.selectedId,
    mode: props.isCommentMode && props.canPick ? "comment" : "browse",
    pinsVisible: props.isCommentMode && props.pinsVisible,
    pending: pending?.anchor ? { anchor: pending.anchor, dotPosition: pending.point } : null,
    anchored: props.found,
  });
  const { showCandidate } = props;
  useEffect(() => {
    if (showCandidate) post("pin:candidate", { id: showCandidate.id, index: showCandidate.index });
  }, [showCandidate, post]);

  return (
    <VersionContent
      view={props.view}
      width={props.width}
      height={props.height}
      comments={props.isCommentMode ? { frameRef: bridge.frameRef } : undefined}
      onRetry={props.onRetry}
      isRetrying={props.isRetrying}
    />
  );
}

export const snapshotStage: StageAdapter = {
  Stage: SnapshotStage,
  refinds: true,
  describe(target: Target) {
    const tag = target.kind === "element" ? target.anchor?.fingerprint.tag : undefined;
    return `New comment on ‹${typeof tag === "string" ? tag : "element"}›`;
  },
};
