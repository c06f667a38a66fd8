import { Drawer } from "../../components/drawer.tsx";

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.userAgent);
const MOD = isMac ? "⌘" : "Ctrl";

/** SPEC §2, keyboard shortcuts drawer. */
const SHORTCUTS: { action: string; keys: string[] }[] = [
  { action: "Bold", keys: [MOD, "B"] },
  { action: "Underline", keys: [MOD, "U"] },
  { action: "Italic", keys: [MOD, "I"] },
  { action: "Undo", keys: [MOD, "Z"] },
  { action: "Move objects by 10 px", keys: ["Shift", "Arrow keys"] },
  { action: "Tag members", keys: ["@"] },
  { action: "Detect spacing", keys: [MOD, "Hover"] },
  { action: "Edit mode", keys: [MOD, "J"] },
  { action: "Click actionable elements", keys: [MOD, "Click"] },
  { action: "Open/close popups", keys: [MOD, "Click"] },
];

export function KeyboardShortcuts({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  return (
    <Drawer open={open} onOpenChange={onOpenChange} title="Keyboard Shortcuts">
      <dl className="shortcuts">
        {SHORTCUTS.map((shortcut) => (
          <div className="shortcuts__row" key={shortcut.action}>
            <dt>{shortcut.action}</dt>
            <dd>
              {shortcut.keys.map((key, index) => (
                <span key={key}>
                  {index > 0 ? <span className="shortcuts__plus">+</span> : null}
                  <kbd className="shortcuts__key">{key}</kbd>
                </span>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </Drawer>
  );
}
