/**
 * The edit-suggestions activity (SPEC §2, `inspect?activity=true`): saved changes grouped by who saved
 * them and when, each with the eye (hide from the page), X (delete) and resolve for editors; "Copy as
 * CSS", "Download .css" and the text changes for everyone who can read them.
 */

import {
  activityGroups,
  cssPatch,
  describeChange,
  elementLabel,
  type InspectChange,
  isFullyResolved,
  textChangesList,
} from "@redline/shared";
import { Check, Copy, Download, Eye, EyeOff, X } from "lucide-react";
import { Avatar } from "../../components/avatar.tsx";
import { CardActions } from "../../components/card-actions.tsx";
import { IconButton } from "../../components/icon-button.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { timeAgo } from "../../lib/time-ago.ts";
import { changesCssUrl, useDeleteChanges, useUpdateChange } from "./inspect-queries.ts";

/** navigator.clipboard needs a secure context; a selected text area and execCommand work elsewhere. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const isCopied = document.execCommand("copy");
    area.remove();
    return isCopied;
  }
}

export function ActivityPanel({
  versionId,
  changes,
  isLoading,
  trackers,
}: {
  versionId: string;
  /** A member's view: each edit's task-tracker cards show, and "Create card" when `canManage`. */
  trackers?: { projectId: string; canManage: boolean };
  /** Each change says what this reader may do with it (`change.abilities`). */
  changes: InspectChange[];
  isLoading: boolean;
}) {
  const update = useUpdateChange(versionId);
  const remove = useDeleteChanges(versionId);
  const groups = activityGroups(changes);
  const css = cssPatch(changes);
  const texts = textChangesList(changes);

  const copy = async (text: string, what: string) => {
    if (await copyText(text)) snackbar.success(`${what} copied to the clipboard.`);
    else snackbar.error("Could not copy. Select the text and copy it yourself.");
  };

  if (isLoading) return <p className="activity__empty">Loading suggestions...</p>;

  return (
    <div className="activity__body inspect-activity">
      <div className="inspect-activity__export">
        <button type="button" className="btn" disabled={!css} onClick={() => copy(css, "CSS")}>
          <Copy size={16} aria-hidden /> Copy as CSS
        </button>
        <a className="btn" href={changesCssUrl(versionId)} download>
          <Download size={16} aria-hidden /> Download .css
        </a>
      </div>
      {groups.length === 0 ? (
        <div className="activity__empty">
          <p className="activity__empty-title">No suggested edits yet</p>
          <p className="activity__hint">Saved edits to styles, text and images show here.</p>
        </div>
      ) : (
        <>
          {isFullyResolved(changes) ? (
            <p className="inspect-activity__resolved" role="status">
              <Check size={16} aria-hidden /> Every suggested edit on this page is resolved.
            </p>
          ) : null}
          <ol className="inspect-groups" aria-label="Suggested edits">
            {groups.map((group) => (
              <li key={group.key} className="inspect-group">
                <div className="inspect-group__head">
                  <Avatar name={group.author.displayName} photoURL={group.author.photoURL} size={24} />
                  <span className="inspect-group__author">{group.author.displayName}</span>
                  <time className="inspect-group__time" dateTime={group.groupCreatedAt}>
                    {timeAgo(group.groupCreatedAt)}
                  </time>
                </div>
                <ul className="inspect-changes">
                  {group.changes.map((change) => {
                    const summary = describeChange(change);
                    return (
                      <li
                        key={change.id}
                        className={`inspect-change${change.isHidden ? " inspect-change--hidden" : ""}${
                          change.isResolved ? " inspect-change--resolved" : ""
                        }`}
                        aria-label={`${elementLabel(change.querySelector)} ${summary}`}
                      >
                        <div className="inspect-change__text">
                          <code className="inspect-change__element" title={change.querySelector}>
                            {elementLabel(change.querySelector)}
                          </code>
                          {change.deviceSize === "mobile" ? (
                            <span className="tag tag--info">Mobile</span>
                          ) : null}
                          <span className="inspect-change__summary">{summary}</span>
                          {change.count > 1 ? (
                            <span className="inspect-change__count" title="Edits merged into this one">
                              ×{change.count}
                            </span>
                          ) : null}
                          {change.isResolved ? <span className="tag tag--success">Resolved</span> : null}
                        </div>
                        {change.abilities.resolve || change.abilities.hide || change.abilities.delete ? (
                          <div className="inspect-change__actions">
                            {change.abilities.resolve ? (
                              <IconButton
                                label={change.isResolved ? "Reopen edit" : "Resolve edit"}
                                icon={Check}
                                title={change.isResolved ? "Reopen" : "Resolve"}
                                aria-pressed={change.isResolved}
                                onClick={() =>
                                  update.mutate({ changeId: change.id, isResolved: !change.isResolved })
                                }
                              />
                            ) : null}
                            {change.abilities.hide ? (
                              <button
                                type="button"
                                className="icon-btn"
                                aria-label={change.isHidden ? "Show edit" : "Hide edit"}
                                title={change.isHidden ? "Show edit" : "Hide edit"}
                                onClick={() =>
                                  update.mutate({ changeId: change.id, isHidden: !change.isHidden })
                                }
                              >
                                {change.isHidden ? (
                                  <EyeOff size={16} aria-hidden />
                                ) : (
                                  <Eye size={16} aria-hidden />
                                )}
                              </button>
                            ) : null}
                            {change.abilities.delete ? (
                              <IconButton
                                label="Delete edit"
                                icon={X}
                                title="Delete edit"
                                disabled={remove.isPending}
                                onClick={() => remove.mutate([change.id])}
                              />
                            ) : null}
                          </div>
                        ) : null}
                        {trackers ? (
                          <CardActions
                            projectId={trackers.projectId}
                            subject="edit"
                            subjectId={change.id}
                            canManage={trackers.canManage}
                          />
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
              </li>
            ))}
          </ol>
        </>
      )}
      {texts ? (
        <section className="inspect-texts" aria-labelledby="inspect-texts-title">
          <div className="inspect-texts__head">
            <h3 id="inspect-texts-title" className="inspect-section__title">
              Text changes
            </h3>
            <button type="button" className="btn btn--ghost" onClick={() => copy(texts, "Text changes")}>
              <Copy size={16} aria-hidden /> Copy
            </button>
          </div>
          <pre className="inspect-texts__list">{texts}</pre>
        </section>
      ) : null}
    </div>
  );
}
