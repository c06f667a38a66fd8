/**
 * Marks drawn over the screenshot: rectangles, arrows and a freehand pen, kept as shapes in screenshot
 * pixels and drawn again on every change (so Undo is dropping the last shape).
 */
export type Tool = "rect" | "arrow" | "pen";
type Point = { x: number; y: number };
export type Mark = { tool: Tool; points: Point[] };

const COLOUR = "#e5383b";

export function drawMarks(context: CanvasRenderingContext2D, marks: readonly Mark[], scale: number) {
  context.save();
  context.strokeStyle = COLOUR;
  context.fillStyle = COLOUR;
  context.lineWidth = Math.max(2, 3 * scale);
  context.lineCap = "round";
  context.lineJoin = "round";
  for (const mark of marks) {
    const [a, ...rest] = mark.points;
    const b = rest[rest.length - 1];
    if (!a) continue;
    context.beginPath();
    if (mark.tool === "rect" && b) {
      context.strokeRect(a.x, a.y, b.x - a.x, b.y - a.y);
    } else if (mark.tool === "arrow" && b) {
      const angle = Math.atan2(b.y - a.y, b.x - a.x);
      const head = 14 * scale;
      context.moveTo(a.x, a.y);
      context.lineTo(b.x, b.y);
      context.stroke();
      context.beginPath();
      context.moveTo(b.x, b.y);
      context.lineTo(b.x - head * Math.cos(angle - 0.45), b.y - head * Math.sin(angle - 0.45));
      context.lineTo(b.x - head * Math.cos(angle + 0.45), b.y - head * Math.sin(angle + 0.45));
      context.closePath();
      context.fill();
    } else if (mark.tool === "pen") {
      context.moveTo(a.x, a.y);
      for (const point of rest) context.lineTo(point.x, point.y);
      context.stroke();
    }
  }
  context.restore();
}

/** Draws on `canvas` (showing `base` and the marks) with the pointer; returns the live list of marks. */
export function annotator(canvas: HTMLCanvasElement, base: () => HTMLCanvasElement, scale: number) {
  const marks: Mark[] = [];
  let tool: Tool = "rect";
  let current: Mark | null = null;
  const context = canvas.getContext("2d")!;
  const render = () => {
    const source = base();
    if (canvas.width !== source.width || canvas.height !== source.height) {
      canvas.width = source.width;
      canvas.height = source.height;
    }
    context.clearRect(0, 0, canvas.width, canvas.height);
    context.drawImage(source, 0, 0);
    drawMarks(context, current ? [...marks, current] : marks, scale);
  };
  const toCanvas = (event: PointerEvent): Point => {
    const rect = canvas.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) / rect.width) * canvas.width,
      y: ((event.clientY - rect.top) / rect.height) * canvas.height,
    };
  };
  canvas.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    canvas.setPointerCapture?.(event.pointerId);
    current = { tool, points: [toCanvas(event)] };
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!current) return;
    const point = toCanvas(event);
    if (current.tool === "pen") current.points.push(point);
    else current.points = [current.points[0]!, point];
    render();
  });
  const end = () => {
    if (current && current.points.length > 1) marks.push(current);
    current = null;
    render();
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);
  return {
    marks,
    render,
    setTool(next: Tool) {
      tool = next;
    },
    undo() {
      marks.pop();
      render();
    },
  };
}
