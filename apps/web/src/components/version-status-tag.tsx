/** A version's capture status as a tag (ready, failed, or its stage). */
import type { Version } from "@redline/shared";

export function VersionStatusTag({ version }: { version: Version | undefined }) {
  if (!version) return null;
  switch (version.status) {
    case "ready":
      return <span className="tag tag--success">Ready</span>;
    case "failed":
      return <span className="tag tag--danger">Failed</span>;
    case "capturing":
      return <span className="tag tag--info">{version.stage ?? "Capturing"}</span>;
    default:
      return <span className="tag tag--info">{version.stage ?? "Queued"}</span>;
  }
}
