/**
 * What a version shows: its capture progress while queued or capturing, the failure reason with a retry
 * for editors, or the content — a sandboxed snapshot, an image, a screenshot or a PDF.
 */
import {
  isCapturing,
  MESSAGES,
  PROJECT_MESSAGES,
  partialCaptureText,
  type Version,
  type VersionView,
} from "@redline/shared";
import { Info, RotateCw, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { isApiError } from "../../lib/api.ts";
import { CaptureProgress } from "../capture-progress.tsx";
import { LoadingView } from "../loading-view.tsx";
import { PdfView } from "./pdf-view.tsx";
import { SnapshotFrame } from "./snapshot-frame.tsx";

/**
 * Comments drawn on the content, supplied by comment mode: the overlay's frame for snapshots, and for
 * images and PDF pages a layer that draws the pins over the content and takes a click as a new spot.
 */
export interface ContentComments {
  frameRef?: (frame: HTMLIFrameElement | null) => void;
  /** Wraps an image (`pdfPage` null) or a PDF page's canvas in the comment layer; `label` names its click target. */
  positioned?: (content: ReactNode, pdfPage: number | null, label: string) => ReactNode;
}

/** The version's view as the viewer feature reads it (`useVersionView`), handed in by the page or feature. */
export interface VersionViewState {
  data?: VersionView;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch(): unknown;
  /** The version as it is now (its capture stage while capturing). */
  live?: Version;
}

export function VersionContent({
  view: viewState,
  width,
  height = null,
  onRetry,
  isRetrying = false,
  comments,
}: {
  comments?: ContentComments;
  view: VersionViewState;
  /** Device size for snapshots. */
  width: number;
  height?: number | null;
  /** Shown on a failed capture for those who may re-capture. */
  onRetry?: () => void;
  isRetrying?: boolean;
}) {
  const { data: view, isPending, isError, error, refetch, live: version } = viewState;

  if (isPending) return <LoadingView />;
  if (isError || !version || !view)
    return (
      <div className="viewer-message" role="alert">
        <TriangleAlert size={28} aria-hidden className="viewer-message__icon" />
        <p className="viewer-message__title">
          {isApiError(error) && error.status === 404
            ? PROJECT_MESSAGES.pageDoesNotExist
            : PROJECT_MESSAGES.loadPageError}
        </p>
        <button type="button" className="btn" onClick={() => refetch()}>
          <RotateCw size={16} aria-hidden /> Try again
        </button>
      </div>
    );

  if (isCapturing(version))
    return (
      <div className="viewer-message">
        <div className="viewer-message__progress">
          <CaptureProgress
            label="Capturing page"
            status={version.status}
            stage={version.stage}
            detail={view.page.url}
          />
        </div>
      </div>
    );

  if (version.status === "failed")
    return (
      <div className="viewer-message" role="alert">
        <TriangleAlert size={28} aria-hidden className="viewer-message__icon" />
        {version.failureReason ? <p className="viewer-message__reason">{version.failureReason}</p> : null}
        <p className="viewer-message__title">{MESSAGES.pageLoadFailed}</p>
        {onRetry ? (
          <button type="button" className="btn btn--primary" onClick={onRetry} disabled={isRetrying}>
            <RotateCw size={16} aria-hidden /> {isRetrying ? "Retrying..." : "Try again"}
          </button>
        ) : null}
      </div>
    );

  const src = view.contentUrl;
  if (!src)
    return (
      <div className="viewer-message" role="alert">
        <p className="viewer-message__title">{PROJECT_MESSAGES.loadPageError}</p>
      </div>
    );

  switch (version.kind) {
    case "snapshot":
      return (
        <>
          {version.partialCapture ? (
            <p className="review__note" role="note">
              <Info size={16} aria-hidden /> {partialCaptureText(version.partialCapture)}
            </p>
          ) : null}
          <SnapshotFrame src={src} width={width} maxHeight={height} frameRef={comments?.frameRef} />
        </>
      );
    case "pdf":
      return (
        <PdfView
          url={src}
          title={view.page.title}
          decorate={
            comments?.positioned
              ? (page, canvas) => comments.positioned?.(canvas, page, `Add a comment on page ${page}`)
              : undefined
          }
        />
      );
    default: {
      const image = (
        <img
          className="image-view__img"
          src={src}
          alt={version.kind === "screenshot" ? `Screenshot of ${view.page.title}` : view.page.title}
        />
      );
      return (
        <div className="image-view">
          {comments?.positioned ? comments.positioned(image, null, "Add a comment on the image") : image}
        </div>
      );
    }
  }
}
