/**
 * A thread entry's video — a comment's or a ticket's (SPEC §3 thread entries): the poster and duration, played inline with
 * the browser's controls (keyboard included), a speed from 1× to 2×, a larger view in a modal, and a
 * link that opens the video at the moment it is paused on. While the server processes it, and if that
 * failed, it says so (the comment itself stays).
 */
import { type EntryVideo, formatVideoTime, VIDEO_MESSAGES } from "@redline/shared";
import { Link2, Maximize2 } from "lucide-react";
import { useRef, useState } from "react";
import { Modal } from "../modal.tsx";
import { snackbar } from "../snackbar-store.ts";
import "./video.css";

const SPEEDS = [1, 1.25, 1.5, 2];

/** `label` names the video for its subject ("Video comment", "Video message"). */
export function VideoPlayer({ entry, label }: { entry: EntryVideo; label: string }) {
  const [large, setLarge] = useState(false);
  if (!entry.hasVideo) return null;
  if (entry.videoStatus === "failed")
    return (
      <p className="video__status" role="status">
        {VIDEO_MESSAGES.processingFailed}
      </p>
    );
  if (entry.videoStatus !== "ready" || !entry.videoURL)
    return (
      <p className="video__status" role="status">
        Processing video{entry.videoDuration ? ` (${formatVideoTime(entry.videoDuration)})` : ""}...
      </p>
    );
  return (
    <div className="video">
      <Player entry={entry} label={label} />
      <button type="button" className="btn btn--ghost video__larger" onClick={() => setLarge(true)}>
        <Maximize2 size={14} aria-hidden /> Watch larger
      </button>
      <Modal open={large} onOpenChange={setLarge} title={label} fullScreen>
        <Player entry={entry} label={label} />
      </Modal>
    </div>
  );
}

function Player({ entry, label }: { entry: EntryVideo; label: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [speed, setSpeed] = useState(1);
  const copyLink = () => {
    const at = Math.floor(video.current?.currentTime ?? 0);
    const url = new URL(entry.videoURL!, window.location.href);
    url.hash = `t=${at}`;
    void navigator.clipboard?.writeText(url.toString()).then(
      () => snackbar.success(`Link to ${formatVideoTime(at)} copied.`),
      () => snackbar.error("The link could not be copied."),
    );
  };
  return (
    <div className="video__player">
      {/* biome-ignore lint/a11y/useMediaCaption: a screen recording with the reviewer's own voice */}
      <video
        ref={video}
        className="video__media"
        src={entry.videoURL!}
        poster={entry.videoPosterURL ?? undefined}
        preload="metadata"
        controls
        aria-label={`${label}, ${formatVideoTime(entry.videoDuration ?? 0)}`}
        onRateChange={(event) => setSpeed(event.currentTarget.playbackRate)}
      />
      <div className="video__bar">
        <span className="video__duration">{formatVideoTime(entry.videoDuration ?? 0)}</span>
        <label className="video__speed">
          Speed
          <select
            value={speed}
            onChange={(event) => {
              const rate = Number(event.target.value);
              setSpeed(rate);
              if (video.current) video.current.playbackRate = rate;
            }}
          >
            {SPEEDS.map((rate) => (
              <option key={rate} value={rate}>
                {rate}×
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="icon-btn" aria-label="Copy a link at this moment" onClick={copyLink}>
          <Link2 size={14} aria-hidden />
        </button>
      </div>
    </div>
  );
}
