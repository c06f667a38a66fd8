/**
 * Writing a comment or a reply on a page or a slide: the discussion composer (components/discussion) with
 * a comment's length limit; a video goes to the project's uploads when files may be attached.
 */
import { MAX_COMMENT_LENGTH } from "@redline/shared";
import { Composer, type ComposerProps } from "../../components/discussion/composer.tsx";
import { projectVideoTarget } from "../../components/video/video-recorder-modal.tsx";

export type { ComposerSubmit } from "../../components/discussion/composer.tsx";

export function CommentComposer(props: ComposerProps) {
  const videoTarget =
    props.videoTarget !== undefined
      ? props.videoTarget
      : props.allowAttachments
        ? projectVideoTarget(props.projectId)
        : null;
  return <Composer {...props} videoTarget={videoTarget} maxLength={MAX_COMMENT_LENGTH} noun="comment" />;
}
