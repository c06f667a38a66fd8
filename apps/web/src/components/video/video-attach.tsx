/**
 * A composer's recorded video (comments and tickets alike): the button that opens the recorder, and the
 * recording attached to the draft until it is sent or removed.
 */
import { formatVideoTime, type VideoInput } from "@redline/shared";
import { Video, X } from "lucide-react";
import { useState } from "react";
import { IconButton } from "../icon-button.tsx";
import { type RecordedVideo, VideoRecorderModal, type VideoTarget } from "./video-recorder-modal.tsx";

/** What a post names: the upload and its cut, never the duration (the server measures it). */
export function videoInputOf(video: RecordedVideo): VideoInput {
  const { duration: _, ...input } = video;
  return input;
}

/** "Record a video" and its recorder; `onAttach` receives the uploaded recording. */
export function RecordVideoButton({
  target,
  disabled,
  onAttach,
}: {
  target: VideoTarget;
  disabled: boolean;
  onAttach(video: RecordedVideo): void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <IconButton
        className="composer__attach"
        label="Record a video"
        icon={Video}
        disabled={disabled}
        onClick={() => setOpen(true)}
      />
      <VideoRecorderModal open={open} target={target} onOpenChange={setOpen} onAttach={onAttach} />
    </>
  );
}

/** The draft's recording in its list of attached files (components/discussion/composer.tsx). */
export function AttachedVideo({ video, onRemove }: { video: RecordedVideo; onRemove(): void }) {
  return (
    <li className="composer__file">
      <Video size={14} aria-hidden />
      <span className="composer__file-name">Video {formatVideoTime(video.duration)}</span>
      <IconButton
        className="composer__remove"
        label="Remove video"
        icon={X}
        iconSize={14}
        onClick={onRemove}
      />
    </li>
  );
}
