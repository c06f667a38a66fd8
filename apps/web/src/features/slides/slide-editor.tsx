/**
 * The slide editor of an illustration project (SPEC §2, issue #32): the strip of slides (500×350
 * thumbnails kept current; add, duplicate, delete, drag to reorder), the slide on a Konva stage, the
 * style panel of the selection, the slide's notes, and who else is here. Every change is a change of the
 * deck's Yjs document (deck-model.ts), shown at once and sent to the other editors (deck-sync.ts); undo
 * and redo are this editor's own (Y.UndoManager). Viewers and commenters see the same, read only, and so
 * does a guest of the public link (`DeckProject.guestIdentity`, in the presence too). Deleting a slide
 * hides its comments (the server does, with the update) and undo brings them back (ADR 0044): a slide that
 * has any asks first.
 */
import {
  arrowMove,
  type Deck,
  fittedImageSize,
  MAX_UPLOAD_BYTES,
  MESSAGES,
  orderedSlides,
  pastedAt,
  SLIDE_ALIGNS,
  SLIDE_FONT_SIZES,
  SLIDE_FONT_WEIGHTS,
  SLIDE_FONTS,
  SLIDE_SAVE_DELAY_MS,
  SLIDE_SIZE,
  type Slide,
  type SlideImageUpload,
  type SlideObject,
  type SlideText,
} from "@redline/shared";
import Konva from "konva";
import {
  AlignCenter,
  AlignHorizontalJustifyCenter,
  AlignHorizontalJustifyEnd,
  AlignHorizontalJustifyStart,
  AlignLeft,
  AlignRight,
  AlignVerticalJustifyCenter,
  AlignVerticalJustifyEnd,
  AlignVerticalJustifyStart,
  BringToFront,
  Copy,
  Download,
  FileDown,
  ImagePlus,
  Italic,
  MessageSquare,
  Plus,
  Redo2,
  RotateCw,
  SendToBack,
  Trash2,
  TriangleAlert,
  Type,
  Underline,
  Undo2,
} from "lucide-react";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useBlocker, useSearchParams } from "react-router";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { LoadingView } from "../../components/loading-view.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { api, isApiError } from "../../lib/api.ts";
import { pickOnSlide } from "../comments/stages/slide-target.ts";
import { useGuestCommentsRealtime } from "../comments/use-guest-comments-realtime.ts";
import { useProjectRealtime } from "../comments/use-project-realtime.ts";
import {
  type Alignment,
  addBlankSlide,
  addObject,
  addSlide,
  addText,
  alignPatches,
  deleteObjects,
  deleteSlide,
  duplicateSlide,
  moveSlide,
  reorderObjects,
  setNotes,
  updateObjects,
} from "./deck-model.ts";
import { exportDeckPdf, exportSlidePng } from "./export.ts";
import { pinsOf, useMovePin, useSlideComments } from "./slide-comments.tsx";
import type { PendingSlideComment, SlideCommentsPanelSlot } from "./slide-comments-slot.ts";
import { thumbnailOf } from "./slide-render.ts";
import { colorOf, SlideStage } from "./slide-stage.tsx";
import { type DeckView, useDeck } from "./use-deck.ts";
import "./slides.css";
import { IconButton } from "../../components/icon-button.tsx";

const STATUS_TEXT = {
  loading: "Loading…",
  saved: "All changes saved",
  saving: "Saving…",
  offline: "Offline — changes are kept and sent when back",
  error: "Some changes could not be saved. Reload the editor.",
} as const;

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** Uploads an image (≤ 5 MB, checked here first) and returns where it is stored and its size. */
async function uploadImage(projectId: string, file: File) {
  if (file.size > MAX_UPLOAD_BYTES) {
    snackbar.error(MESSAGES.maxFileSize);
    return null;
  }
  if (!file.type.startsWith("image/")) {
    snackbar.error("Upload a JPEG, PNG, WebP or GIF image.");
    return null;
  }
  const form = new FormData();
  form.append("file", file, file.name || "pasted.png");
  try {
    const { data } = await api<{ data: SlideImageUpload }>(`/api/projects/${projectId}/slides/images`, {
      method: "POST",
      body: form,
    });
    return data;
  } catch (error) {
    snackbar.error(isApiError(error) ? error.message : "The image could not be uploaded.");
    return null;
  }
}

/** A slide's thumbnail is redrawn this long after it changed (a burst of changes draws once). */
const THUMBNAIL_AFTER_MS = 60;

/**
 * Whether a pointer is down in this tab: thumbnails (off-screen Konva stages) are not drawn meanwhile, so
 * they never run into a drag on the editor's stage as it starts.
 */
let pointerIsDown = false;
if (typeof window !== "undefined") {
  window.addEventListener(
    "pointerdown",
    () => {
      pointerIsDown = true;
    },
    true,
  );
  for (const type of ["pointerup", "pointercancel"] as const)
    window.addEventListener(
      type,
      () => {
        pointerIsDown = false;
      },
      true,
    );
}

/** Each slide's 500×350 thumbnail, redrawn shortly after the slide changes. */
function useThumbnails(deck: Deck): Record<string, string> {
  const [thumbnails, setThumbnails] = useState<Record<string, string>>({});
  const drawn = useRef(new Map<string, string>());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    for (const slide of Object.values(deck)) {
      const key = JSON.stringify(slide.objects);
      if (drawn.current.get(slide.id) === key) continue;
      drawn.current.set(slide.id, key);
      clearTimeout(timers.current.get(slide.id));
      const draw = () => {
        if (pointerIsDown || Konva.isDragging()) {
          timers.current.set(slide.id, setTimeout(draw, THUMBNAIL_AFTER_MS));
          return;
        }
        void thumbnailOf(slide).then((url) => {
          // A later change's drawing may have finished first: only the slide's latest is kept.
          if (drawn.current.get(slide.id) === key) setThumbnails((all) => ({ ...all, [slide.id]: url }));
        });
      };
      timers.current.set(slide.id, setTimeout(draw, THUMBNAIL_AFTER_MS));
    }
  }, [deck]);
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);
  return thumbnails;
}

function useSize<T extends HTMLElement>(): [React.RefObject<T | null>, { width: number; height: number }] {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 800, height: 560 });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size];
}

/** The project whose deck is shown, and who looks at it: a member, or a guest of its public link. */
export interface DeckProject {
  id: string;
  title: string;
  /** Whether this reader may pin comments (a member's right, or the link allowing guests' comments). */
  canComment: boolean;
  /** A guest of the public link (no account): the deck, read only, and its comments through `/api/share`. */
  guestIdentity?: string;
}

/** `bar`: the project's bar above the editor (the page composes it: project name, sharing). */
export function SlideEditor({
  project,
  bar,
  commentsPanel,
}: {
  project: DeckProject;
  bar: ReactNode;
  /** The panel of the current slide's comments (the comments feature's, given by the page). */
  commentsPanel: SlideCommentsPanelSlot;
}) {
  const view = useDeck(project.id, project.guestIdentity ?? null);
  if (view.loadError)
    return (
      <div className="status-view" role="alert">
        <TriangleAlert size={32} aria-hidden className="status-view__icon" />
        <h1 className="status-view__title">The slides could not be loaded</h1>
        <p className="status-view__text">Check your connection and try again.</p>
        <div className="status-view__actions">
          <button type="button" className="btn btn--primary" onClick={view.retry}>
            <RotateCw size={16} aria-hidden /> Try again
          </button>
        </div>
      </div>
    );
  if (!view.isLoaded) return <LoadingView text="Loading slides…" />;
  return <Editor project={project} view={view} bar={bar} commentsPanel={commentsPanel} />;
}

function Editor({
  project,
  view,
  bar,
  commentsPanel,
}: {
  project: DeckProject;
  view: DeckView;
  bar: ReactNode;
  commentsPanel: SlideCommentsPanelSlot;
}) {
  const { sync, deck, canEdit, others } = view;
  const slides = sync.slides;
  const order = useMemo(() => orderedSlides(deck), [deck]);
  const [currentId, setCurrentId] = useState<string | null>(order[0]?.id ?? null);
  const [selection, setSelection] = useState<string[]>([]);
  const [ctrlHeld, setCtrlHeld] = useState(false);
  const [stageBox, stageSize] = useSize<HTMLDivElement>();
  const thumbnails = useThumbnails(deck);
  const current: Slide | undefined = (currentId && deck[currentId]) || order[0];
  const selectedObjects = selection.flatMap((id) => (current?.objects[id] ? [current.objects[id]] : []));

  // Comments on the slides: live through the project's room (a guest's socket for a guest of the link);
  // `?id=` opens one (and its slide).
  const { guestIdentity } = project;
  const isGuest = guestIdentity !== undefined;
  useProjectRealtime(project.id, !isGuest);
  useGuestCommentsRealtime(project.id, guestIdentity ?? "public", isGuest);
  const slideComments = useSlideComments(project.id, guestIdentity);
  const [params, setParams] = useSearchParams();
  const openCommentId = params.get("id");
  const openComment = useCallback(
    (id: string | null) => {
      const next = new URLSearchParams(params);
      if (id) next.set("id", id);
      else next.delete("id");
      setParams(next, { replace: true });
    },
    [params, setParams],
  );
  const [placing, setPlacing] = useState(false);
  const [pendingComment, setPendingComment] = useState<PendingSlideComment | null>(null);
  const followed = useRef<string | null>(null);
  useEffect(() => {
    if (!openCommentId || followed.current === openCommentId) return;
    const comment = slideComments.comments.find((entry) => entry.id === openCommentId);
    if (!comment?.slideId || !deck[comment.slideId]) return;
    followed.current = openCommentId;
    setCurrentId(comment.slideId);
  }, [openCommentId, slideComments.comments, deck]);
  const pins = useMemo(
    () => (current ? pinsOf(slideComments.comments, current, slideComments.numbers, openCommentId) : []),
    [current, slideComments.comments, slideComments.numbers, openCommentId],
  );
  const movePin = useMovePin(slideComments.scope, current, slideComments.comments);
  const placeComment = useCallback(
    (at: { x: number; y: number }, objectId: string | null) => {
      if (!current) return;
      setPendingComment(pickOnSlide(current, at, objectId));
      setPlacing(false);
      openComment(null);
    },
    [current, openComment],
  );

  // An editor opening an empty deck starts it with a blank slide.
  useEffect(() => {
    if (order.length === 0 && canEdit) setCurrentId(addBlankSlide(slides));
  }, [order.length, canEdit, slides]);
  // A slide deleted by someone else: show the first one.
  useEffect(() => {
    if (currentId && !deck[currentId] && order[0]) setCurrentId(order[0].id);
  }, [currentId, deck, order]);
  // What was selected and is gone (deleted, undone) is no longer selected.
  useEffect(() => {
    if (selection.some((id) => !current?.objects[id]))
      setSelection((ids) => ids.filter((id) => current?.objects[id]));
  }, [current, selection]);

  // Presence: where I am and what I hold, now and every 10 s; gone when the editor closes (a guest of the
  // link too: members see them, they see the members).
  const slideId = current?.id ?? null;
  const selectionKey = selection.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: a guest naming themselves (useDeck gives `sync` the new identity) is told at once
  useEffect(() => {
    const send = () => sync.sendPresence(slideId, selectionKey ? selectionKey.split(",") : []);
    const soon = setTimeout(send, 150);
    const every = setInterval(send, 10_000);
    return () => {
      clearTimeout(soon);
      clearInterval(every);
    };
  }, [sync, slideId, selectionKey, guestIdentity]);
  useEffect(() => () => sync.sendPresence(null, [], true), [sync]);

  // Leaving inside the app with edits still on their way: send them first, then go.
  const blocker = useBlocker(() => sync.hasUnsent());
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    sync.flush();
    blocker.proceed();
  }, [blocker, sync]);
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!sync.hasUnsent()) return;
      sync.flush();
      event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [sync]);

  // The project card's thumbnail is the first slide's, saved SPEC §9's 3000 ms after this editor changed it.
  const firstThumbnail = order[0] ? thumbnails[order[0].id] : undefined;
  const savedThumbnail = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!canEdit || !firstThumbnail || sync.localEdits === 0 || savedThumbnail.current === firstThumbnail)
      return;
    const timer = setTimeout(() => {
      savedThumbnail.current = firstThumbnail;
      void api(`/api/projects/${project.id}/thumbnail`, {
        method: "POST",
        body: { dataUrl: firstThumbnail },
      }).catch(() => undefined);
    }, SLIDE_SAVE_DELAY_MS.object);
    return () => clearTimeout(timer);
  }, [canEdit, firstThumbnail, sync, project.id]);

  const change = useCallback(
    (patches: Record<string, Partial<SlideObject>>) => {
      if (current) updateObjects(slides, current.id, patches);
    },
    [slides, current],
  );

  /** Uploads an image and puts it on the slide where `place` says for its fitted size. */
  const placeImage = useCallback(
    async (file: File, place: (size: { width: number; height: number }) => { x: number; y: number }) => {
      if (!current || !canEdit) return;
      const stored = await uploadImage(project.id, file);
      if (!stored) return;
      const size = fittedImageSize(stored.width, stored.height);
      const id = addObject(slides, current.id, {
        kind: "image",
        src: stored.src,
        ...size,
        ...place(size),
        rotation: 0,
      } as Omit<SlideObject, "id" | "z">);
      setSelection([id]);
    },
    [current, canEdit, project.id, slides],
  );
  /** Centred on a point of the slide, or on the slide. */
  const centredOn =
    (at: { x: number; y: number } | null) =>
    ({ width, height }: { width: number; height: number }) => ({
      x: Math.round((at?.x ?? SLIDE_SIZE.width / 2) - width / 2),
      y: Math.round((at?.y ?? SLIDE_SIZE.height / 2) - height / 2),
    });

  // Keys: undo/redo, arrows (Shift: 10 px), Delete, Ctrl/Cmd+B/I/U on texts, Escape.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Control" || event.key === "Meta") setCtrlHeld(event.type === "keydown");
      if (event.type !== "keydown" || isTyping(event.target)) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && key === "z") {
        event.preventDefault();
        if (event.shiftKey) sync.undo.redo();
        else sync.undo.undo();
        return;
      }
      if (mod && key === "y") {
        event.preventDefault();
        sync.undo.redo();
        return;
      }
      if (!canEdit || !current || selection.length === 0) {
        if (key === "escape") setSelection([]);
        return;
      }
      const move = arrowMove(event.key, event.shiftKey);
      if (move) {
        event.preventDefault();
        change(
          Object.fromEntries(selectedObjects.map((o) => [o.id, { x: o.x + move.dx, y: o.y + move.dy }])),
        );
        return;
      }
      if (key === "delete" || key === "backspace") {
        event.preventDefault();
        deleteObjects(slides, current.id, selection);
        setSelection([]);
        return;
      }
      if (key === "escape") return setSelection([]);
      if (mod && (key === "b" || key === "i" || key === "u")) {
        const texts = selectedObjects.filter((o): o is SlideText => o.kind === "text");
        if (texts.length === 0) return;
        event.preventDefault();
        const first = texts[0] as SlideText;
        const patch: Partial<SlideText> =
          key === "b"
            ? { fontWeight: first.fontWeight >= 600 ? 400 : 700 }
            : key === "i"
              ? { italic: !first.italic }
              : { underline: !first.underline };
        change(Object.fromEntries(texts.map((t) => [t.id, patch])));
      }
    };
    const onBlur = () => setCtrlHeld(false);
    window.addEventListener("keydown", onKey);
    window.addEventListener("keyup", onKey);
    window.addEventListener("blur", onBlur);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("keyup", onKey);
      window.removeEventListener("blur", onBlur);
    };
  }, [sync, canEdit, current, selection, selectedObjects, change, slides]);

  // Pasting an image from the clipboard (SPEC §9: +20 px top, +50 px left from the selected image).
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      if (isTyping(event.target) || !canEdit) return;
      const file = [...(event.clipboardData?.files ?? [])].find((f) => f.type.startsWith("image/"));
      if (!file) return;
      event.preventDefault();
      const at = pastedAt(selectedObjects.find((o) => o.kind === "image") ?? null);
      void placeImage(file, () => at);
    };
    window.addEventListener("paste", onPaste);
    return () => window.removeEventListener("paste", onPaste);
  }, [canEdit, selectedObjects, placeImage]);

  // A slide's comments go with it (as a deleted version's do): a slide that has any is deleted once confirmed.
  const [deleting, setDeleting] = useState<string | null>(null);
  const removeSlide = (id: string) => {
    setSelection([]);
    setCurrentId(deleteSlide(slides, id));
  };
  const deletingNumber = order.findIndex((slide) => slide.id === deleting) + 1;
  const deletingComments = deleting ? (slideComments.noOfComments[deleting] ?? 0) : 0;

  const fileInput = useRef<HTMLInputElement>(null);
  const scale = Math.min(stageSize.width / SLIDE_SIZE.width, stageSize.height / SLIDE_SIZE.height);
  const currentNumber = current ? order.findIndex((s) => s.id === current.id) + 1 : 0;

  return (
    <div className="screen project-home slide-editor">
      {bar}
      <div className="slide-editor__toolbar" role="toolbar" aria-label="Slide tools">
        {canEdit ? (
          <>
            <button
              type="button"
              className="btn btn--ghost"
              onClick={() => current && setSelection([addText(slides, current.id, { x: 80, y: 80 })])}
            >
              <Type size={16} aria-hidden /> Add text
            </button>
            <button type="button" className="btn btn--ghost" onClick={() => fileInput.current?.click()}>
              <ImagePlus size={16} aria-hidden /> Add image
            </button>
            <input
              ref={fileInput}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              hidden
              aria-label="Image file"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) void placeImage(file, centredOn(null));
              }}
            />
            <span className="slide-editor__divider" aria-hidden />
            <IconButton
              label="Undo"
              icon={Undo2}
              iconSize={18}
              title="Undo (Ctrl/Cmd+Z)"
              onClick={() => sync.undo.undo()}
            />
            <IconButton
              label="Redo"
              icon={Redo2}
              iconSize={18}
              title="Redo (Shift+Ctrl/Cmd+Z)"
              onClick={() => sync.undo.redo()}
            />
          </>
        ) : (
          <span className="tag">View only</span>
        )}
        <span className="slide-editor__status" role="status" data-status={view.status}>
          {/* Someone who cannot edit has nothing to save: only trouble reading the deck is said. */}
          {canEdit || view.status === "offline" || view.status === "error" ? STATUS_TEXT[view.status] : null}
        </span>
        <Presence others={others} order={order} />
        <button
          type="button"
          className="btn btn--ghost"
          disabled={!current}
          onClick={() => current && void exportSlidePng(current, project.title, currentNumber)}
        >
          <Download size={16} aria-hidden /> PNG
        </button>
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => void exportDeckPdf(deck, project.title)}
        >
          <FileDown size={16} aria-hidden /> PDF
        </button>
      </div>
      <div className="slide-editor__body">
        <SlideStrip
          order={order}
          currentId={current?.id ?? null}
          thumbnails={thumbnails}
          others={others}
          canEdit={canEdit}
          onOpen={(id) => {
            setCurrentId(id);
            setSelection([]);
          }}
          onAdd={() => setCurrentId(addSlide(slides, current?.id))}
          onDuplicate={(id) => setCurrentId(duplicateSlide(slides, id))}
          onDelete={(id) => (slideComments.noOfComments[id] ? setDeleting(id) : removeSlide(id))}
          onMove={(id, index) => moveSlide(slides, id, index)}
          noOfComments={slideComments.noOfComments}
        />
        <div className="slide-editor__main">
          {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping image files is a shortcut of "Add image" */}
          <div
            className="slide-editor__stage"
            ref={stageBox}
            onDragOver={(event) => {
              if (canEdit && event.dataTransfer.types.includes("Files")) event.preventDefault();
            }}
            onDrop={(event) => {
              if (!canEdit) return;
              const files = [...event.dataTransfer.files];
              if (files.length === 0) return;
              event.preventDefault();
              const rect = event.currentTarget.querySelector(".slide-stage")?.getBoundingClientRect();
              const at = rect
                ? { x: (event.clientX - rect.left) / scale, y: (event.clientY - rect.top) / scale }
                : null;
              for (const file of files) void placeImage(file, centredOn(at));
            }}
          >
            {current ? (
              <SlideStage
                slide={current}
                width={stageSize.width}
                height={stageSize.height}
                canEdit={canEdit}
                selection={selection}
                onSelect={setSelection}
                onChange={change}
                others={others}
                showDistances={ctrlHeld}
                pins={pins}
                onComment={placing ? placeComment : undefined}
                onOpenPin={openComment}
                onMovePin={movePin}
              />
            ) : (
              <div className="empty-state">
                <h2 className="empty-state__title">No slides yet</h2>
                <p className="empty-state__text">Slides added by the project's editors will show here.</p>
              </div>
            )}
          </div>
          {current ? (
            <label className="slide-editor__notes">
              <span className="slide-editor__notes-label">Notes</span>
              <textarea
                value={current.notes}
                readOnly={!canEdit}
                placeholder={canEdit ? "Add notes for this slide" : "No notes"}
                maxLength={10_000}
                onChange={(event) => setNotes(slides, current.id, event.target.value)}
              />
            </label>
          ) : null}
        </div>
        {canEdit && current ? (
          <StylePanel
            objects={selectedObjects}
            onChange={change}
            onAlign={(alignment) => change(alignPatches(selectedObjects, alignment, SLIDE_SIZE))}
            onOrder={(to) => reorderObjects(slides, current.id, selection, to)}
            onDelete={() => {
              deleteObjects(slides, current.id, selection);
              setSelection([]);
            }}
          />
        ) : null}
        <ConfirmModal
          open={deleting !== null}
          onOpenChange={(open) => {
            if (!open) setDeleting(null);
          }}
          title="Delete this slide?"
          description={`Slide ${deletingNumber} and its ${deletingComments === 1 ? "comment are" : `${deletingComments} comments are`} deleted. Undo brings them back.`}
          confirmLabel="Delete slide"
          onConfirm={() => {
            if (deleting) removeSlide(deleting);
            setDeleting(null);
          }}
        />
        {commentsPanel({
          scope: slideComments.scope,
          canComment: project.canComment,
          slide: current,
          comments: slideComments.comments,
          numbers: slideComments.numbers,
          isLoading: slideComments.query.isLoading,
          isError: slideComments.query.isError,
          openId: openCommentId,
          onOpen: openComment,
          placing,
          onPlace: (next) => {
            setPlacing(next);
            if (next) setPendingComment(null);
          },
          pending: pendingComment?.slideId === current?.id ? pendingComment : null,
          onCancelPending: () => setPendingComment(null),
        })}
      </div>
    </div>
  );
}

function initials(name: string) {
  return (
    name
      .split(/[\s@.]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join("") || "?"
  );
}

function Presence({ others, order }: { others: DeckView["others"]; order: Slide[] }) {
  if (others.length === 0) return null;
  return (
    <ul className="slide-presence" aria-label="Also here">
      {others.map((person) => {
        const number = order.findIndex((s) => s.id === person.slideId) + 1;
        const where = number > 0 ? `slide ${number}` : "another slide";
        const name = person.isGuest ? `${person.name} (guest)` : person.name;
        return (
          <li
            key={person.clientId}
            className="slide-presence__person"
            style={{ background: colorOf(person.clientId) }}
            title={`${name} — ${where}${person.selection.length ? `, ${person.selection.length} selected` : ""}`}
            aria-label={`${name} on ${where}`}
          >
            {initials(person.name)}
          </li>
        );
      })}
    </ul>
  );
}

function SlideStrip({
  order,
  currentId,
  thumbnails,
  others,
  canEdit,
  onOpen,
  onAdd,
  onDuplicate,
  onDelete,
  onMove,
  noOfComments,
}: {
  order: Slide[];
  currentId: string | null;
  thumbnails: Record<string, string>;
  /** Comments per slide (SPEC §3 noOfComments). */
  noOfComments: Record<string, number>;
  others: DeckView["others"];
  canEdit: boolean;
  onOpen(id: string): void;
  onAdd(): void;
  onDuplicate(id: string): void;
  onDelete(id: string): void;
  onMove(id: string, index: number): void;
}) {
  const [dragged, setDragged] = useState<string | null>(null);
  return (
    <nav className="slide-strip" aria-label="Slides">
      <ol className="slide-strip__list">
        {order.map((slide, index) => (
          <li
            key={slide.id}
            className="slide-strip__item"
            data-current={slide.id === currentId || undefined}
            draggable={canEdit}
            onDragStart={(event) => {
              setDragged(slide.id);
              event.dataTransfer.effectAllowed = "move";
              event.dataTransfer.setData("text/x-slide", slide.id);
            }}
            onDragOver={(event) => {
              if (dragged) event.preventDefault();
            }}
            onDrop={(event) => {
              if (!dragged) return;
              event.preventDefault();
              onMove(dragged, index);
              setDragged(null);
            }}
            onDragEnd={() => setDragged(null)}
          >
            <button
              type="button"
              className="slide-strip__thumb"
              aria-label={`Slide ${index + 1}`}
              aria-current={slide.id === currentId ? "true" : undefined}
              aria-describedby={noOfComments[slide.id] ? `slide-comments-${slide.id}` : undefined}
              onClick={() => onOpen(slide.id)}
            >
              <span className="slide-strip__number">{index + 1}</span>
              {noOfComments[slide.id] ? (
                <span id={`slide-comments-${slide.id}`} className="slide-strip__comments">
                  <MessageSquare size={12} aria-hidden />
                  {noOfComments[slide.id]}
                  <span className="visually-hidden">
                    {noOfComments[slide.id] === 1 ? " comment" : " comments"}
                  </span>
                </span>
              ) : null}
              {thumbnails[slide.id] ? (
                <img src={thumbnails[slide.id]} alt="" width={500} height={350} />
              ) : (
                <span className="slide-strip__blank" />
              )}
              <span className="slide-strip__people">
                {others
                  .filter((p) => p.slideId === slide.id)
                  .map((p) => (
                    <span
                      key={p.clientId}
                      className="slide-strip__dot"
                      style={{ background: colorOf(p.clientId) }}
                      title={p.name}
                    />
                  ))}
              </span>
            </button>
            {canEdit && slide.id === currentId ? (
              <span className="slide-strip__actions">
                <IconButton
                  label="Duplicate slide"
                  icon={Copy}
                  iconSize={14}
                  onClick={() => onDuplicate(slide.id)}
                />
                <IconButton
                  label="Delete slide"
                  icon={Trash2}
                  iconSize={14}
                  onClick={() => onDelete(slide.id)}
                />
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      {canEdit ? (
        <button type="button" className="btn btn--block" onClick={onAdd}>
          <Plus size={16} aria-hidden /> Add slide
        </button>
      ) : null}
    </nav>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child passed in
    <label className="slide-panel__field">
      <span>{label}</span>
      {children}
    </label>
  );
}

const ALIGN_ICONS = { left: AlignLeft, center: AlignCenter, right: AlignRight } as const;
const ARRANGE: { alignment: Alignment; label: string; icon: typeof AlignLeft }[] = [
  { alignment: "left", label: "Align left edges", icon: AlignHorizontalJustifyStart },
  { alignment: "center", label: "Align centres", icon: AlignHorizontalJustifyCenter },
  { alignment: "right", label: "Align right edges", icon: AlignHorizontalJustifyEnd },
  { alignment: "top", label: "Align top edges", icon: AlignVerticalJustifyStart },
  { alignment: "middle", label: "Align middles", icon: AlignVerticalJustifyCenter },
  { alignment: "bottom", label: "Align bottom edges", icon: AlignVerticalJustifyEnd },
];

function StylePanel({
  objects,
  onChange,
  onAlign,
  onOrder,
  onDelete,
}: {
  objects: SlideObject[];
  onChange(patches: Record<string, Partial<SlideObject>>): void;
  onAlign(alignment: Alignment): void;
  onOrder(to: "front" | "back"): void;
  onDelete(): void;
}) {
  if (objects.length === 0)
    return (
      <aside className="slide-panel" aria-label="Selection">
        <p className="slide-panel__hint">
          Select an object to style it. Shift+click selects more; Shift+arrows move by 10 px; hold Ctrl/Cmd to
          see distances.
        </p>
      </aside>
    );
  const texts = objects.filter((o): o is SlideText => o.kind === "text");
  const text = texts[0];
  const setText = (patch: Partial<SlideText>) =>
    onChange(Object.fromEntries(texts.map((t) => [t.id, patch])));
  return (
    <aside className="slide-panel" aria-label="Selection">
      <h2 className="slide-panel__title">
        {objects.length === 1 ? (text ? "Text" : "Image") : `${objects.length} objects`}
      </h2>
      {text ? (
        <>
          <Field label="Font">
            <select
              value={text.fontFamily}
              onChange={(e) => setText({ fontFamily: e.target.value as SlideText["fontFamily"] })}
            >
              {SLIDE_FONTS.map((font) => (
                <option key={font}>{font}</option>
              ))}
            </select>
          </Field>
          <div className="slide-panel__row">
            <Field label="Size">
              <select value={text.fontSize} onChange={(e) => setText({ fontSize: Number(e.target.value) })}>
                {(SLIDE_FONT_SIZES as readonly number[]).includes(text.fontSize) ? null : (
                  <option>{text.fontSize}</option>
                )}
                {SLIDE_FONT_SIZES.map((size) => (
                  <option key={size}>{size}</option>
                ))}
              </select>
            </Field>
            <Field label="Weight">
              <select
                value={text.fontWeight}
                onChange={(e) => setText({ fontWeight: Number(e.target.value) })}
              >
                {SLIDE_FONT_WEIGHTS.map((weight) => (
                  <option key={weight}>{weight}</option>
                ))}
              </select>
            </Field>
          </div>
          <div className="slide-panel__row">
            <Field label="Colour">
              <input type="color" value={text.fill} onChange={(e) => setText({ fill: e.target.value })} />
            </Field>
            <fieldset className="slide-panel__buttons" aria-label="Text style">
              <IconButton
                label="Italic"
                icon={Italic}
                aria-pressed={text.italic}
                onClick={() => setText({ italic: !text.italic })}
              />
              <IconButton
                label="Underline"
                icon={Underline}
                aria-pressed={text.underline}
                onClick={() => setText({ underline: !text.underline })}
              />
            </fieldset>
          </div>
          <fieldset className="slide-panel__buttons" aria-label="Text alignment">
            {SLIDE_ALIGNS.map((align) => {
              const Icon = ALIGN_ICONS[align];
              return (
                <IconButton
                  label={`Align text ${align}`}
                  icon={Icon}
                  key={align}
                  aria-pressed={text.align === align}
                  onClick={() => setText({ align })}
                />
              );
            })}
          </fieldset>
        </>
      ) : null}
      <h3 className="slide-panel__subtitle">{objects.length === 1 ? "Align to slide" : "Align"}</h3>
      <fieldset className="slide-panel__buttons" aria-label="Align">
        {ARRANGE.map(({ alignment, label, icon: Icon }) => (
          <IconButton
            label={label}
            icon={Icon}
            key={alignment}
            title={label}
            onClick={() => onAlign(alignment)}
          />
        ))}
      </fieldset>
      <h3 className="slide-panel__subtitle">Layer</h3>
      <fieldset className="slide-panel__buttons" aria-label="Layer order">
        <IconButton
          label="Bring to front"
          icon={BringToFront}
          title="Bring to front"
          onClick={() => onOrder("front")}
        />
        <IconButton
          label="Send to back"
          icon={SendToBack}
          title="Send to back"
          onClick={() => onOrder("back")}
        />
      </fieldset>
      <button type="button" className="btn btn--danger slide-panel__delete" onClick={onDelete}>
        <Trash2 size={16} aria-hidden /> Delete
      </button>
    </aside>
  );
}
