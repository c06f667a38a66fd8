/**
 * The slide being edited, on a react-konva stage scaled to fit: objects in layer order, click (Shift for
 * more) to select, drag to move with snapping guides to the slide's and the other objects' edges and
 * centres, a Transformer to resize and rotate, double-click a text to edit it in place, others'
 * selections outlined in their colour, and — while Ctrl/Cmd is held — the distances from the selected
 * object to its neighbours. A drag changes only Konva's nodes until it ends (no React render per frame);
 * its end is one change of the deck. Comment pins are drawn on it and reached by keyboard through their
 * buttons (slide-pins.tsx).
 */
import {
  type DeckPresence,
  layeredObjects,
  neighbourDistances,
  SLIDE_SIZE,
  type Slide,
  type SlideObject,
  type SlideText,
} from "@redline/shared";
import Konva from "konva";
import { memo, useEffect, useMemo, useRef, useState } from "react";
import {
  Circle,
  Group,
  Image as KImage,
  Text as KText,
  Layer,
  Line,
  Rect,
  Stage,
  Transformer,
} from "react-konva";
import { SlidePins } from "./slide-pins.tsx";
import { fontStyleOf, loadImage, objectNode } from "./slide-render.ts";

const SNAP_PX = 6;
export const PRESENCE_COLORS = ["#2f5fb3", "#1f7a4d", "#9a5b00", "#7c3aed", "#0e7490", "#be185d"];

export function colorOf(clientId: number): string {
  return PRESENCE_COLORS[clientId % PRESENCE_COLORS.length] as string;
}

interface StageProps {
  slide: Slide;
  width: number;
  height: number;
  canEdit: boolean;
  selection: string[];
  onSelect(ids: string[]): void;
  onChange(patches: Record<string, Partial<SlideObject>>): void;
  others: DeckPresence[];
  showDistances: boolean;
  onStage?(stage: Konva.Stage | null): void;
  /** The slide's comment pins, where they now are (on their objects). */
  pins?: StagePin[];
  /** Set while placing a comment: a click on the slide or an object says where (instead of selecting). */
  onComment?(at: { x: number; y: number }, objectId: string | null): void;
  onOpenPin?(commentId: string): void;
  /** A pin dragged to a point of the slide (only pins that `movable`). */
  onMovePin?(commentId: string, at: { x: number; y: number }): void;
}

export interface StagePin {
  id: string;
  number: number;
  x: number;
  y: number;
  isResolved: boolean;
  isOpen: boolean;
  movable: boolean;
  /** Who wrote the comment (its first entry's author), for the pin's accessible name. */
  author: string;
}

const PIN_RADIUS = 12;

function useLoadedImage(src: string): HTMLImageElement | null {
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  useEffect(() => {
    let live = true;
    void loadImage(src).then((loaded) => live && setImage(loaded));
    return () => {
      live = false;
    };
  }, [src]);
  return image;
}

function SlideImageNode({
  object,
  ...rest
}: { object: Extract<SlideObject, { kind: "image" }> } & NodeProps) {
  const image = useLoadedImage(object.src);
  return (
    <KImage
      {...rest}
      id={object.id}
      name="object"
      image={image ?? undefined}
      x={object.x}
      y={object.y}
      width={object.width}
      height={object.height}
      rotation={object.rotation}
      fill={image ? undefined : "#f1f1f3"}
    />
  );
}

interface NodeProps {
  draggable: boolean;
  onMouseDown(event: Konva.KonvaEventObject<MouseEvent>): void;
  onDragMove(event: Konva.KonvaEventObject<DragEvent>): void;
  onDragEnd(): void;
  onTransformEnd(): void;
  onDblClick?(): void;
}

/** Drawn again only when its own props change (not for the strip's thumbnails or the status line). */
export const SlideStage = memo(function SlideStage({
  slide,
  width,
  height,
  canEdit,
  selection,
  onSelect,
  onChange,
  others,
  showDistances,
  onStage,
  pins = [],
  onComment,
  onOpenPin,
  onMovePin,
}: StageProps) {
  const scale = Math.min(width / SLIDE_SIZE.width, height / SLIDE_SIZE.height);
  const stageRef = useRef<Konva.Stage>(null);
  const transformer = useRef<Konva.Transformer>(null);
  const guides = useRef<Konva.Layer>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const objects = useMemo(() => layeredObjects(slide), [slide]);

  useEffect(() => {
    onStage?.(stageRef.current);
    return () => onStage?.(null);
  }, [onStage]);

  // The Transformer holds the selected nodes (never the one being typed into); `objects` redraws it
  // when the nodes under it changed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `objects` re-attaches nodes after a change
  useEffect(() => {
    const stage = stageRef.current;
    const tr = transformer.current;
    // Re-attaching nodes under a drag would end it unseen; the drag's own change re-runs this.
    if (!stage || !tr || Konva.isDragging()) return;
    const nodes = canEdit
      ? selection
          .filter((id) => id !== editing)
          .map((id) => objectNode(stage, id))
          .filter((node): node is Konva.Node => Boolean(node))
      : [];
    tr.nodes(nodes);
    tr.getLayer()?.batchDraw();
  }, [selection, canEdit, editing, objects]);

  const boxOf = (node: Konva.Node) => node.getClientRect({ relativeTo: node.getLayer() ?? undefined });

  const select = (id: string, additive: boolean) => {
    if (additive) onSelect(selection.includes(id) ? selection.filter((s) => s !== id) : [...selection, id]);
    else if (!selection.includes(id)) onSelect([id]);
  };

  const drawGuides = (lines: { x?: number; y?: number }[]) => {
    const layer = guides.current;
    if (!layer) return;
    layer.destroyChildren();
    for (const line of lines) {
      const points =
        line.x !== undefined
          ? [line.x, 0, line.x, SLIDE_SIZE.height]
          : [0, line.y ?? 0, SLIDE_SIZE.width, line.y ?? 0];
      layer.add(
        new Konva.Line({ points, stroke: "#e5383b", strokeWidth: 1 / scale, dash: [4 / scale, 4 / scale] }),
      );
    }
    layer.batchDraw();
  };

  /** Snaps the dragged node's edges and centre to the slide's and the others' (one node dragged alone). */
  const snap = (event: Konva.KonvaEventObject<DragEvent>) => {
    if (selection.length > 1) return;
    const node = event.target;
    const box = boxOf(node);
    const xs = [0, SLIDE_SIZE.width / 2, SLIDE_SIZE.width];
    const ys = [0, SLIDE_SIZE.height / 2, SLIDE_SIZE.height];
    for (const other of objects) {
      if (other.id === node.id()) continue;
      xs.push(other.x, other.x + other.width / 2, other.x + other.width);
      ys.push(other.y, other.y + other.height / 2, other.y + other.height);
    }
    const threshold = SNAP_PX / scale;
    const nearest = (edges: number[], lines: number[]) => {
      let best: { diff: number; line: number } | null = null;
      for (const edge of edges)
        for (const line of lines) {
          const diff = line - edge;
          if (Math.abs(diff) <= threshold && (!best || Math.abs(diff) < Math.abs(best.diff)))
            best = { diff, line };
        }
      return best;
    };
    const snapX = nearest([box.x, box.x + box.width / 2, box.x + box.width], xs);
    const snapY = nearest([box.y, box.y + box.height / 2, box.y + box.height], ys);
    if (snapX) node.x(node.x() + snapX.diff);
    if (snapY) node.y(node.y() + snapY.diff);
    drawGuides([...(snapX ? [{ x: snapX.line }] : []), ...(snapY ? [{ y: snapY.line }] : [])]);
  };

  const commitNodes = (ids: string[]) => {
    const stage = stageRef.current;
    if (!stage) return;
    drawGuides([]);
    const patches: Record<string, Partial<SlideObject>> = {};
    for (const id of ids) {
      const node = objectNode(stage, id);
      const object = slide.objects[id];
      if (!node || !object) continue;
      const scaleX = node.scaleX();
      const scaleY = node.scaleY();
      node.scaleX(1);
      node.scaleY(1);
      const width = Math.max(5, Math.round(node.width() * scaleX));
      const measuredHeight = object.kind === "text" ? (node as Konva.Text).height() : node.height() * scaleY;
      patches[id] = {
        x: Math.round(node.x()),
        y: Math.round(node.y()),
        rotation: Math.round(node.rotation() * 10) / 10,
        width,
        height: Math.max(5, Math.round(measuredHeight)),
      };
    }
    onChange(patches);
  };

  /** Where the pointer is, in the slide's coordinates. */
  const pointer = () => {
    const at = stageRef.current?.getPointerPosition();
    return at ? { x: at.x / scale, y: at.y / scale } : null;
  };

  const nodeProps = (object: SlideObject): NodeProps => ({
    draggable: canEdit && editing !== object.id && !onComment,
    onMouseDown: (event) => {
      const at = onComment && pointer();
      if (at) onComment?.(at, object.id);
      else select(object.id, event.evt.shiftKey);
    },
    onDragMove: snap,
    onDragEnd: () => commitNodes(selection.includes(object.id) ? selection : [object.id]),
    onTransformEnd: () => commitNodes(selection),
    onDblClick: object.kind === "text" && canEdit ? () => setEditing(object.id) : undefined,
  });

  const selected = selection.length === 1 ? slide.objects[selection[0] as string] : undefined;
  const distances =
    showDistances && selected
      ? neighbourDistances(
          selected,
          objects.filter((o) => o.id !== selected.id),
        )
      : null;
  const editingText = editing ? (slide.objects[editing] as SlideText | undefined) : undefined;

  return (
    <div
      className="slide-stage"
      data-placing={onComment ? "true" : undefined}
      style={{ width: SLIDE_SIZE.width * scale, height: SLIDE_SIZE.height * scale }}
    >
      <Stage
        ref={stageRef}
        width={SLIDE_SIZE.width * scale}
        height={SLIDE_SIZE.height * scale}
        scaleX={scale}
        scaleY={scale}
        onMouseDown={(event) => {
          const onSlide = event.target === event.target.getStage() || event.target.name() === "background";
          const at = onComment && onSlide && pointer();
          if (at) onComment?.(at, null);
          else if (onSlide) onSelect([]);
        }}
      >
        <Layer>
          <Rect
            name="background"
            x={0}
            y={0}
            width={SLIDE_SIZE.width}
            height={SLIDE_SIZE.height}
            fill="#ffffff"
          />
          {objects.map((object) =>
            object.kind === "image" ? (
              <SlideImageNode key={object.id} object={object} {...nodeProps(object)} />
            ) : (
              <KText
                key={object.id}
                id={object.id}
                name="object"
                {...nodeProps(object)}
                x={object.x}
                y={object.y}
                width={object.width}
                rotation={object.rotation}
                text={object.text}
                fontFamily={object.fontFamily}
                fontSize={object.fontSize}
                fontStyle={fontStyleOf(object)}
                textDecoration={object.underline ? "underline" : ""}
                fill={object.fill}
                align={object.align}
                opacity={editing === object.id ? 0 : 1}
              />
            ),
          )}
          {others.flatMap((person) =>
            person.slideId === slide.id
              ? person.selection.flatMap((id) => {
                  const object = slide.objects[id];
                  return object
                    ? [
                        <Rect
                          key={`${person.clientId}-${id}`}
                          x={object.x - 3}
                          y={object.y - 3}
                          width={object.width + 6}
                          height={object.height + 6}
                          rotation={object.rotation}
                          stroke={colorOf(person.clientId)}
                          strokeWidth={2 / scale}
                          listening={false}
                        />,
                      ]
                    : [];
                })
              : [],
          )}
          {pins.map((pin) => (
            <Group
              key={pin.id}
              name="comment-pin"
              id={`pin-${pin.id}`}
              x={pin.x}
              y={pin.y}
              scaleX={1 / scale}
              scaleY={1 / scale}
              draggable={pin.movable}
              onMouseDown={(event) => {
                event.cancelBubble = true;
              }}
              onClick={() => onOpenPin?.(pin.id)}
              onTap={() => onOpenPin?.(pin.id)}
              onDragEnd={(event) => onMovePin?.(pin.id, { x: event.target.x(), y: event.target.y() })}
            >
              <Circle
                radius={PIN_RADIUS}
                fill={pin.isResolved ? "#1f7a4d" : "#e5383b"}
                stroke={pin.isOpen ? "#1f2933" : "#ffffff"}
                strokeWidth={pin.isOpen ? 3 : 2}
                shadowColor="#000"
                shadowOpacity={0.25}
                shadowBlur={4}
              />
              <KText
                text={String(pin.number)}
                x={-PIN_RADIUS}
                y={-6}
                width={PIN_RADIUS * 2}
                align="center"
                fontSize={12}
                fontStyle="bold"
                fill="#ffffff"
                listening={false}
              />
            </Group>
          ))}
          {distances && selected ? <Distances box={selected} d={distances} scale={scale} /> : null}
          <Transformer
            ref={transformer}
            rotateEnabled
            keepRatio={false}
            enabledAnchors={[
              "top-left",
              "top-right",
              "bottom-left",
              "bottom-right",
              "middle-left",
              "middle-right",
              "top-center",
              "bottom-center",
            ]}
            boundBoxFunc={(old, box) => (box.width < 5 || box.height < 5 ? old : box)}
          />
        </Layer>
        <Layer ref={guides} listening={false} />
      </Stage>
      {onOpenPin ? <SlidePins pins={pins} scale={scale} onOpen={onOpenPin} /> : null}
      {editingText && editing ? (
        <textarea
          className="slide-stage__text-editor"
          aria-label="Text"
          // biome-ignore lint/a11y/noAutofocus: the text was double-clicked to be typed into
          autoFocus
          defaultValue={editingText.text}
          style={{
            left: editingText.x * scale,
            top: editingText.y * scale,
            width: editingText.width * scale,
            minHeight: Math.max(editingText.height, editingText.fontSize * 1.4) * scale,
            fontFamily: editingText.fontFamily,
            fontSize: editingText.fontSize * scale,
            fontWeight: editingText.fontWeight,
            fontStyle: editingText.italic ? "italic" : "normal",
            textDecoration: editingText.underline ? "underline" : "none",
            color: editingText.fill,
            textAlign: editingText.align,
            transform: `rotate(${editingText.rotation}deg)`,
          }}
          onKeyDown={(event) => {
            if (event.key === "Escape" || (event.key === "Enter" && (event.metaKey || event.ctrlKey)))
              event.currentTarget.blur();
          }}
          onBlur={(event) => {
            const text = event.currentTarget.value;
            setEditing(null);
            const stage = stageRef.current;
            const node = stage ? (objectNode(stage, editing) as Konva.Text | undefined) : undefined;
            node?.text(text);
            onChange({
              [editing]: { text, height: Math.max(5, Math.round(node?.height() ?? editingText.height)) },
            });
          }}
        />
      ) : null}
    </div>
  );
});

/** The distances from the selected box to its neighbours, as dashed lines with their pixels. */
function Distances({
  box,
  d,
  scale,
}: {
  box: { x: number; y: number; width: number; height: number };
  d: { left: number; right: number; top: number; bottom: number };
  scale: number;
}) {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const lines = [
    { points: [box.x - d.left, cy, box.x, cy], label: d.left, at: [box.x - d.left / 2, cy] },
    {
      points: [box.x + box.width, cy, box.x + box.width + d.right, cy],
      label: d.right,
      at: [box.x + box.width + d.right / 2, cy],
    },
    { points: [cx, box.y - d.top, cx, box.y], label: d.top, at: [cx, box.y - d.top / 2] },
    {
      points: [cx, box.y + box.height, cx, box.y + box.height + d.bottom],
      label: d.bottom,
      at: [cx, box.y + box.height + d.bottom / 2],
    },
  ];
  return (
    <>
      {lines.map((line) => (
        <Line
          key={line.points.join(",")}
          points={line.points}
          stroke="#2f5fb3"
          strokeWidth={1 / scale}
          dash={[4 / scale, 3 / scale]}
          listening={false}
        />
      ))}
      {lines.map((line) => (
        <KText
          key={`t${line.points.join(",")}`}
          x={(line.at[0] as number) + 4 / scale}
          y={(line.at[1] as number) + 4 / scale}
          text={`${line.label} px`}
          fontSize={12 / scale}
          fill="#2f5fb3"
          listening={false}
        />
      ))}
    </>
  );
}
