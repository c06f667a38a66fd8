/**
 * In-place text editing of the selected element (inspect mode): the element becomes contenteditable
 * on copies of its nodes (Changes.beginEdit keeps the originals), Cmd/Ctrl+B/I/U toggle marks,
 * Enter breaks the line, pasting inserts plain text. Escape, a click elsewhere or losing focus ends
 * it; a different text or different marks are reported once, as rich text.
 */
import type { Changes } from "./changes.ts";
import { dom } from "./dom.ts";
import { isSameRichText, type RichText, readRichText, visibleText } from "./rich-text.ts";

interface Session {
  element: HTMLElement;
  before: string;
  beforeRich: RichText;
  /** The element's own contenteditable attribute, put back afterwards. */
  editable: string | null;
}

const MARK_COMMANDS: Record<string, string> = { b: "bold", i: "italic", u: "underline" };
const NOT_TEXT = /^(img|picture|video|audio|canvas|iframe|object|embed|svg|input|textarea|select|math)$/;
/** Containers with more inside than this are not edited as one text. */
const MAX_DESCENDANTS = 200;

/** Whether an element holds text that can be edited in place: text, and nothing but inline content. */
export function hasEditableText(element: Element): element is HTMLElement {
  if (!(element instanceof HTMLElement) || NOT_TEXT.test(element.localName)) return false;
  if (element === dom.body() || element === dom.root()) return false;
  const descendants = element.getElementsByTagName("*");
  if (descendants.length > MAX_DESCENDANTS) return false;
  for (const child of descendants) {
    if (!(child instanceof HTMLElement) || NOT_TEXT.test(child.localName)) return false;
    const display = getComputedStyle(child).display;
    if (display !== "none" && display !== "contents" && !display.startsWith("inline")) return false;
  }
  return visibleText(element).trim().length > 0;
}

/** The key's letter whatever the layout (Cmd+Z on a Cyrillic layout is still KeyZ). */
export function letterOf(event: KeyboardEvent): string {
  if (/^[a-z]$/i.test(event.key)) return event.key.toLowerCase();
  return event.code.startsWith("Key") ? event.code.slice(3).toLowerCase() : "";
}

export class TextEditor {
  private session: Session | null = null;

  constructor(
    private readonly changes: Changes,
    /** Editing ended with a different text or different marks. */
    private readonly onEdited: (element: HTMLElement, before: string, after: RichText) => void,
  ) {}

  get element(): HTMLElement | null {
    return this.session?.element ?? null;
  }

  /** An event inside the element being edited (the page must get it). */
  isInside(event: Event): boolean {
    return this.session !== null && event.composedPath().includes(this.session.element);
  }

  start(element: HTMLElement, point: { x: number; y: number } | null): void {
    if (this.session?.element === element) return;
    this.end();
    const before = this.changes.beginEdit(element);
    this.changes.editing = element;
    this.session = {
      element,
      before,
      beforeRich: readRichText(element),
      editable: element.getAttribute("contenteditable"),
    };
    element.setAttribute("contenteditable", "true");
    element.addEventListener("focusout", this.handleFocusOut);
    element.addEventListener("paste", this.handlePaste);
    element.focus({ preventScroll: true });
    const selection = window.getSelection();
    const range = point ? dom.caretRangeFromPoint(point.x, point.y) : null;
    if (selection) {
      if (range && element.contains(range.startContainer)) {
        selection.removeAllRanges();
        selection.addRange(range);
      } else {
        selection.selectAllChildren(element);
      }
    }
  }

  end(): void {
    const session = this.session;
    if (!session) return;
    this.session = null;
    const { element } = session;
    element.removeEventListener("focusout", this.handleFocusOut);
    element.removeEventListener("paste", this.handlePaste);
    const after = readRichText(element);
    if (session.editable === null) element.removeAttribute("contenteditable");
    else element.setAttribute("contenteditable", session.editable);
    const selection = window.getSelection();
    if (selection && element.contains(selection.anchorNode)) selection.removeAllRanges();
    this.changes.editing = null;
    if (isSameRichText(after, session.beforeRich)) {
      // Nothing to report: the element gets back what the set says it shows.
      this.changes.render();
    } else {
      this.onEdited(element, session.before, after);
    }
  }

  /** Keys while editing; true when the key was ours. The browser keeps its own undo (Cmd/Ctrl+Z). */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.session) return false;
    const isMod = event.ctrlKey || event.metaKey;
    const command = isMod && !event.altKey && !event.shiftKey ? MARK_COMMANDS[letterOf(event)] : undefined;
    if (command) {
      event.preventDefault();
      dom.execCommand(command);
      return true;
    }
    if (event.key === "Escape") {
      event.preventDefault();
      this.end();
      return true;
    }
    if (event.key === "Enter") {
      // One element's text: a line break, never a new paragraph.
      event.preventDefault();
      dom.execCommand("insertLineBreak");
      return true;
    }
    return false;
  }

  private handleFocusOut = (event: FocusEvent) => {
    const next = event.relatedTarget;
    if (next instanceof Node && this.session?.element.contains(next)) return;
    this.end();
  };

  private handlePaste = (event: ClipboardEvent) => {
    event.preventDefault();
    const text = event.clipboardData?.getData("text/plain") ?? "";
    if (text) dom.execCommand("insertText", false, text);
  };
}
