/** A capture's progress: its stage text ('Queued', 'Loading page', 'Saving snapshot') and a bar. */
import type { VersionStatus } from "@redline/shared";
import { LoaderCircle } from "lucide-react";

const STAGE_PERCENT: Record<string, number> = { Queued: 10, "Loading page": 45, "Saving snapshot": 85 };

export function progressPercent(status: VersionStatus | "uploading", stage: string | null): number | null {
  if (status === "ready") return 100;
  if (status === "uploading") return null;
  return (stage ? STAGE_PERCENT[stage] : undefined) ?? (status === "queued" ? 10 : 30);
}

export function CaptureProgress({
  label,
  status,
  stage,
  detail,
}: {
  /** What is in progress, e.g. 'Capturing page'. */
  label: string;
  status: VersionStatus | "uploading";
  stage: string | null;
  detail?: string;
}) {
  const percent = progressPercent(status, stage);
  const stageText = stage ?? (status === "uploading" ? "Uploading" : "Queued");
  return (
    <div className="capture-progress">
      <div className="capture-progress__row">
        <LoaderCircle size={16} aria-hidden className="spin capture-progress__spinner" />
        <span className="capture-progress__label">{label}</span>
        <span className="capture-progress__stage" aria-live="polite">
          {stageText}
        </span>
      </div>
      {detail ? <p className="capture-progress__detail">{detail}</p> : null}
      <div
        className={percent === null ? "progress progress--indeterminate" : "progress"}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={stageText}
      >
        <div className="progress__bar" style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
    </div>
  );
}
