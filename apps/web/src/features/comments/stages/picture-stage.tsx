/**
 * An image, a screenshot or a PDF: pins over the picture (position-layer.tsx), a comment's point being a
 * fraction of the image or of its PDF page; a click is an image point or a PDF page point.
 */
import type { Target } from "@redline/shared";
import { useEffect, useMemo, useRef } from "react";
import { VersionContent } from "../../../components/stage/version-content.tsx";
import { PositionLayer, type PositionPin } from "../position-layer.tsx";
import type { StageAdapter, StageProps } from "./stage.ts";

function PictureStage(props: StageProps) {
  const { pins, numbers, selectedId, onPick, onSelect } = props;
  const byPage = useMemo(() => {
    const pages = new Map<number | null, PositionPin[]>();
    for (const comment of pins) {
      const page = comment.pdfPage ?? null;
      const list = pages.get(page) ?? [];
      list.push({
        id: comment.id,
        number: numbers.get(comment.id) ?? 0,
        x: comment.dotPosition.x,
        y: comment.dotPosition.y,
        isResolved: comment.isResolved,
        isSelected: comment.id === selectedId,
      });
      pages.set(page, list);
    }
    return pages;
  }, [pins, numbers, selectedId]);
  const pending = props.pending && "point" in props.pending ? props.pending : null;
  const pendingPage = pending?.kind === "pdf-point" ? pending.page : null;
  const deviceWidth = () => Math.max(100, Math.round(window.innerWidth));
  useScrollToSelected(selectedId);

  return (
    <VersionContent
      view={props.view}
      width={props.width}
      height={props.height}
      onRetry={props.onRetry}
      isRetrying={props.isRetrying}
      comments={
        props.isCommentMode
          ? {
              positioned: (content, pdfPage, label) => (
                <PositionLayer
                  pins={byPage.get(pdfPage) ?? []}
                  pending={pending && pendingPage === pdfPage ? pending.point : null}
                  label={label}
                  onPick={
                    props.canPick
                      ? (point) =>
                          onPick(
                            pdfPage === null
                              ? { kind: "image-point", point }
                              : { kind: "pdf-point", page: pdfPage, point },
                            deviceWidth(),
                          )
                      : undefined
                  }
                  onSelect={onSelect}
                >
                  {content}
                </PositionLayer>
              ),
            }
          : undefined
      }
    />
  );
}

/** Scrolls the selected comment's pin into view once it is drawn. */
function useScrollToSelected(selectedId: string | null) {
  const focused = useRef<string | null>(null);
  useEffect(() => {
    if (!selectedId) {
      focused.current = null;
      return;
    }
    if (focused.current === selectedId) return;
    const pin = document.querySelector(`[data-comment-id="${CSS.escape(selectedId)}"]`);
    if (!pin) return;
    pin.scrollIntoView({ block: "center", inline: "center" });
    focused.current = selectedId;
  });
}

export const pictureStage: StageAdapter = {
  Stage: PictureStage,
  refinds: false,
  describe(target: Target) {
    return target.kind === "pdf-point" ? `New comment on page ${target.page}` : "New comment on the image";
  },
};
