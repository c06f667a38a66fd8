/**
 * A captured page, at the chosen device width. The snapshot is other people's HTML on the content
 * origin: it is embedded with `sandbox="allow-scripts"` and never `allow-same-origin`, so it runs in an
 * opaque origin and can reach neither the app's cookies nor its API. When the width does not fit, the
 * frame keeps its layout width (so the page's media queries see the device width) and is scaled down.
 */
import { useRef } from "react";
import { useElementSize } from "./use-element-size.ts";

const GUTTER = 32;

export function SnapshotFrame({
  src,
  width,
  maxHeight = null,
  frameRef,
}: {
  src: string;
  width: number;
  /** The overlay bridge's ref (comment mode). */
  frameRef?: (frame: HTMLIFrameElement | null) => void;
  /** A device's own height (the mobile frame); otherwise the frame fills the stage. */
  maxHeight?: number | null;
}) {
  const stage = useRef<HTMLDivElement>(null);
  const size = useElementSize(stage);
  const available = Math.max(0, size.width - GUTTER);
  const scale = available > 0 ? Math.min(1, available / width) : 1;
  const stageHeight = Math.max(0, size.height - GUTTER);
  const height = maxHeight ? Math.min(stageHeight, maxHeight * scale) : stageHeight;

  return (
    <div ref={stage} className="snapshot-stage">
      <div className="snapshot-stage__device" style={{ width: width * scale, height }}>
        <iframe
          ref={frameRef}
          className="snapshot-stage__frame"
          sandbox="allow-scripts"
          src={src}
          title="Page snapshot"
          referrerPolicy="no-referrer"
          style={{
            width,
            height: scale > 0 ? height / scale : height,
            transform: scale === 1 ? undefined : `scale(${scale})`,
          }}
        />
      </div>
      {scale < 1 ? (
        <p className="snapshot-stage__scale">
          {width} px shown at {Math.round(scale * 100)}%
        </p>
      ) : null}
    </div>
  );
}
