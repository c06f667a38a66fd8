import type { EntryVideo, VideoStatus } from "@redline/shared";

/**
 * A thread entry's video as the API shows it (SPEC §3): `base` is the entry's path, whose `/video` and
 * `/poster` serve it once processed.
 */
export function presentEntryVideo(
  entry: {
    videoStatus: VideoStatus | null;
    videoKey: string | null;
    videoPosterKey: string | null;
    videoDuration: number | null;
  },
  base: string,
): EntryVideo {
  const ready = entry.videoStatus === "ready";
  return {
    hasVideo: entry.videoStatus !== null,
    videoURL: ready && entry.videoKey ? `${base}/video` : null,
    videoPosterURL: ready && entry.videoPosterKey ? `${base}/poster` : null,
    videoDuration: entry.videoDuration,
    videoStatus: entry.videoStatus,
  };
}
