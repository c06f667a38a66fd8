/**
 * Inspect mode and preview (SPEC §2–§4): the snapshot with the suggested edits applied, and, in inspect
 * mode, the edit panel for the element picked in the page, the save panel and the activity.
 *
 * The overlay in the frame picks elements, edits text in place and moves elements with the arrow keys
 * (frame protocol, use-overlay-bridge.ts); every edit becomes an unsaved change here, and the page is
 * told the full set to show (`inspect:apply`: saved visible changes with the unsaved ones over them).
 * Unsaved edits are an undo stack of steps (inspect-panel.ts); saving sends them merged.
 */
import {
  changeKey,
  deviceSizeOf,
  type EditStep,
  type FrameChange,
  frameChangesOf,
  imageEdit,
  MESSAGES,
  moveEdit,
  type OverlayToParentMessage,
  type PendingEdit,
  pendingChanges,
  pushStep,
  styleEdit,
  textEdit,
  toChangeInput,
  undoStep,
  type Version,
} from "@redline/shared";
import { History, MousePointerClick, Undo2 } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { snackbar } from "../../components/snackbar-store.ts";
import { VersionContent } from "../../components/stage/version-content.tsx";
import { showPlanRefusal } from "../../components/upgrade-prompt-store.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { isTooLarge } from "../../lib/files.ts";
import { useOverlayBridge } from "../../lib/use-overlay-bridge.ts";
import { ActivityPanel } from "./activity-panel.tsx";
import { EditPanel, type EditRequest, type InspectedElement } from "./edit-panel.tsx";
import { uploadChangeImage, useChanges, useSaveChanges } from "./inspect-queries.ts";
import { UnsavedChangesGuard } from "./unsaved-dialog.tsx";
import { useInspectRealtime } from "./use-inspect-realtime.ts";
import "./inspect.css";
import { IconButton } from "../../components/icon-button.tsx";
import { useVersionView } from "../viewer/version-queries.ts";

export const EDIT_MODE_HINT = "Inspect and edit page elements, including font, alignment, spacing, etc.";
export const SAVE_HINT = "Save your changes once you are done with all the edits.";
const EDITS_APPLY_TO_WEB_PAGES = "Suggested edits apply to web pages. Images and PDFs take comments only.";

const isFieldTarget = (target: EventTarget | null) =>
  target instanceof HTMLInputElement ||
  target instanceof HTMLTextAreaElement ||
  target instanceof HTMLSelectElement ||
  (target instanceof HTMLElement && target.isContentEditable);

export function InspectWorkspace({
  projectId,
  version,
  mode,
  device,
  canEdit,
  canManageIntegrations,
  showPanel = true,
  note,
  contentProps,
}: {
  projectId: string;
  version: Version;
  /** preview: the page with every visible saved edit, no panel. */
  mode: "inspect" | "preview";
  device: { width: number; height: number | null };
  /** `abilities.suggestEdits`: pick, edit, save, hide, resolve and delete. */
  canEdit: boolean;
  /** Set in a member's view: edits' task-tracker cards show, and "Create card" when true. */
  canManageIntegrations?: boolean;
  /** The versions panel may take the panel's place. */
  showPanel?: boolean;
  note?: string;
  contentProps: { onRetry?: () => void; isRetrying?: boolean };
}) {
  const versionView = useVersionView(version.id, undefined);
  const isInspect = mode === "inspect";
  const isSnapshot = version.kind === "snapshot";
  const isReady = version.status === "ready";
  const [params, setParams] = useSearchParams();
  const changes = useChanges(version.id, isSnapshot && isReady);
  useInspectRealtime(projectId, version.id, isSnapshot);
  const save = useSaveChanges(version.id);
  const saved = changes.data ?? [];

  const [stack, setStack] = useState<EditStep[]>([]);
  const pending = useMemo(() => pendingChanges(stack), [stack]);
  const [selection, setSelection] = useState<InspectedElement | null>(null);
  const [isEditing, setEditing] = useState(true);
  const [isUploading, setUploading] = useState(false);
  const canPick = isInspect && canEdit && isEditing;

  const target = selection ? { anchor: selection.anchor, deviceWidth: selection.deviceWidth } : null;
  const push = (edits: (PendingEdit | null)[], options?: { coalesce?: boolean }) => {
    const step = edits.filter((edit): edit is PendingEdit => edit !== null);
    if (step.length > 0) setStack((current) => pushStep(current, step, options));
  };
  const undo = () => setStack(undoStep);
  const toggleEditing = () => setEditing((current) => !current);

  const handleOverlay = (message: OverlayToParentMessage) => {
    if (!isInspect || !canEdit) return;
    switch (message.type) {
      case "inspect:selected":
        setSelection(message.payload);
        break;
      case "inspect:cleared":
        setSelection(null);
        break;
      case "inspect:text": {
        const { anchor, deviceWidth, before, after } = message.payload;
        push([textEdit({ anchor, deviceWidth }, before, after)]);
        break;
      }
      case "inspect:move": {
        const { anchor, deviceWidth, translate } = message.payload;
        push([moveEdit({ anchor, deviceWidth }, translate)]);
        break;
      }
      case "inspect:shortcut":
        if (message.payload.action === "undo") undo();
        else toggleEditing();
        break;
    }
  };
  const bridge = useOverlayBridge(handleOverlay);
  const { post, generation } = bridge;

  const frameChanges: FrameChange[] = useMemo(
    () => frameChangesOf(saved, isInspect ? pending : []),
    [saved, pending, isInspect],
  );
  const changesJson = JSON.stringify(frameChanges);
  useEffect(() => {
    if (!generation) return;
    post("inspect:apply", { changes: JSON.parse(changesJson) as FrameChange[] });
  }, [generation, changesJson, post]);
  useEffect(() => {
    if (!generation) return;
    post("overlay:mode", { mode: canPick ? "inspect" : "browse" });
    if (!canPick) post("inspect:select", null);
  }, [generation, canPick, post]);
  useEffect(() => {
    if (!canPick) setSelection(null);
  }, [canPick]);

  // Cmd/Ctrl+Z and Cmd/Ctrl+J while the app (not the page) has the keyboard; fields keep their own undo.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the handler reads the latest state each render
  useEffect(() => {
    if (!isInspect || !canEdit) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (!(event.metaKey || event.ctrlKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === "z" && !event.shiftKey && !isFieldTarget(event.target)) {
        event.preventDefault();
        undo();
      } else if (key === "j") {
        event.preventDefault();
        toggleEditing();
      }
    };
    window.addEventListener("keydown", handleKeyDown);
    return () => window.removeEventListener("keydown", handleKeyDown);
  }, [isInspect, canEdit]);

  const currentValue = (property: string) => {
    if (!selection) return "";
    const key = changeKey({
      querySelector: selection.anchor.querySelector,
      property: property as PendingEdit["property"],
      deviceSize: deviceSizeOf(selection.deviceWidth),
    });
    const edit = pending.find((entry) => changeKey(entry) === key);
    return edit?.value ?? selection.styles[property] ?? "";
  };
  const handleEdit: EditRequest = (pairs, options) => {
    if (!target) return;
    push(
      pairs.map(([property, value]) => styleEdit(target, property, value)),
      options,
    );
  };
  const handleReplaceImage = async (file: File) => {
    if (!target) return;
    if (isTooLarge(file)) {
      snackbar.error(MESSAGES.maxFileSize);
      return;
    }
    setUploading(true);
    try {
      const { path, imageDimensions } = await uploadChangeImage(version.id, file);
      push([imageEdit(target, path, imageDimensions)]);
    } catch (error) {
      if (!showPlanRefusal(error)) snackbar.error(errorMessage(error));
    } finally {
      setUploading(false);
    }
  };
  const handleSave = async () => {
    if (pending.length === 0) return true;
    try {
      await save.mutateAsync(pending.map(toChangeInput));
      setStack([]);
      return true;
    } catch {
      return false;
    }
  };

  const isActivityOpen = !canEdit || params.get("activity") === "true";
  const toggleActivity = () => {
    const next = new URLSearchParams(params);
    if (isActivityOpen) next.delete("activity");
    else next.set("activity", "true");
    setParams(next, { replace: true });
  };

  const stage = (
    <main className="review__stage">
      {isSnapshot ? (
        note ? (
          <p className="review__note" role="note">
            {isInspect && canEdit && !isEditing
              ? "Edit mode is off: the page works as captured. Press Ctrl+J to edit."
              : note}
          </p>
        ) : null
      ) : (
        <p className="review__note" role="note">
          {isInspect ? EDITS_APPLY_TO_WEB_PAGES : note}
        </p>
      )}
      <VersionContent
        key={version.id}
        view={versionView}
        width={device.width}
        height={device.height}
        comments={isSnapshot ? { frameRef: bridge.frameRef } : undefined}
        {...contentProps}
      />
      {isInspect && canEdit && isSnapshot && isReady ? (
        <div className="stage-bar">
          <IconButton
            label="Edit mode"
            icon={MousePointerClick}
            iconSize={18}
            aria-pressed={isEditing}
            title="Edit mode (Ctrl/Cmd+J)"
            onClick={toggleEditing}
          />
        </div>
      ) : null}
    </main>
  );

  const guard =
    isInspect && canEdit ? (
      <UnsavedChangesGuard
        count={pending.length}
        isSaving={save.isPending}
        onSave={handleSave}
        onDiscard={() => setStack([])}
      />
    ) : null;

  if (!isInspect || !isSnapshot || !isReady || !showPanel)
    return (
      <>
        {stage}
        {guard}
      </>
    );

  return (
    <>
      {stage}
      <aside className="activity inspect-panel" aria-labelledby="inspect-panel-title">
        <div className="activity__head">
          <h2 id="inspect-panel-title" className="activity__title">
            {isActivityOpen ? "Suggested edits" : "Edit"}
          </h2>
          <span className="activity__count">{isActivityOpen ? saved.length : null}</span>
          <span className="thread__spacer" />
          {canEdit ? (
            <button
              type="button"
              className="btn btn--ghost"
              aria-pressed={isActivityOpen}
              onClick={toggleActivity}
            >
              <History size={16} aria-hidden /> Activity
            </button>
          ) : null}
        </div>
        {isActivityOpen ? (
          <ActivityPanel
            versionId={version.id}
            changes={saved}
            isLoading={changes.isPending}
            trackers={
              canManageIntegrations === undefined
                ? undefined
                : { projectId, canManage: canManageIntegrations }
            }
          />
        ) : (
          <div className="activity__body">
            <p className="activity__hint inspect-panel__hint">{EDIT_MODE_HINT}</p>
            {selection ? (
              <EditPanel
                element={selection}
                currentValue={currentValue}
                onEdit={handleEdit}
                onReplaceImage={handleReplaceImage}
                isUploading={isUploading}
              />
            ) : (
              <div className="activity__empty">
                <p className="activity__empty-title">Pick an element</p>
                <p className="activity__hint">
                  Click an element in the page to edit its styles or its text. Hold Shift and press the arrow
                  keys to move it by 10 px.
                </p>
              </div>
            )}
          </div>
        )}
        {canEdit ? (
          <section className="inspect-save" aria-label="Save">
            <p className="inspect-save__hint">{SAVE_HINT}</p>
            <div className="inspect-save__actions">
              <button
                type="button"
                className="btn btn--primary"
                disabled={pending.length === 0 || save.isPending}
                onClick={() => void handleSave()}
              >
                {save.isPending ? "Saving..." : `Save (${pending.length})`}
              </button>
              <button
                type="button"
                className="btn"
                disabled={stack.length === 0}
                onClick={undo}
                title="Undo (Ctrl/Cmd+Z)"
              >
                <Undo2 size={16} aria-hidden /> Undo
              </button>
            </div>
          </section>
        ) : null}
      </aside>
      {guard}
    </>
  );
}
