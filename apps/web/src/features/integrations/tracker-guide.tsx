/**
 * The Trello-style task-tracker guide (SPEC §2's modal): how cards get from Redline to a board and back,
 * the same four steps for every tracker.
 */
import { TRACKER_NAMES, TRACKER_TERMS, type TrackerType } from "@redline/shared";
import { Modal } from "../../components/modal.tsx";

/** What the tracker does to a finished card, what it calls doing so, and what Redline may read and write. */
const FINISHING: Record<TrackerType, { does: string; doing: string; reads: string }> = {
  trello: { does: "archives", doing: "archiving", reads: "boards" },
  clickup: { does: "completes", doing: "completing", reads: "workspace" },
  github: { does: "closes", doing: "closing", reads: "repositories' issues" },
  asana: { does: "completes", doing: "completing", reads: "projects' tasks" },
  jira: { does: "moves to Done", doing: "moving to Done", reads: "projects' issues" },
};

export function TrackerGuide({
  tracker,
  open,
  onOpenChange,
}: {
  tracker: TrackerType;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const name = TRACKER_NAMES[tracker];
  const terms = TRACKER_TERMS[tracker];
  const where =
    tracker === "trello"
      ? "a board and a list"
      : tracker === "jira"
        ? "a project and the issue type its issues are made as"
        : `a ${terms.list}`;
  const finishing = FINISHING[tracker];
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={`How ${name} works with Redline`}>
      <ol className="tracker-guide">
        <li>
          <strong>Connect.</strong> Sign in to {name} and allow Redline to read and write your{" "}
          {finishing.reads}. You come back here when it is done.
        </li>
        <li>
          <strong>Choose where cards go:</strong> {where}. Everyone who edits this project sends cards there.
        </li>
        <li>
          <strong>Create cards.</strong>{" "}
          {`Open a comment thread, an edit suggestion or a ticket and choose "Create ${name} ${terms.card}" — or turn on "Create ${/^[aeiou]/.test(terms.card) ? "an" : "a"} ${terms.card} for each new comment and ticket".`}{" "}
          Each card holds the text, the page's address, the element and a link back to Redline; its link shows
          on the comment.
        </li>
        <li>
          <strong>Resolve on either side.</strong>{" "}
          {`Resolving the thread here ${finishing.does} the ${terms.card}; ${finishing.doing} it in ${name} resolves the thread here.`}
        </li>
      </ol>
    </Modal>
  );
}
