import { BookOpen, CircleHelp, Keyboard, Megaphone, Sparkles } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import type { Feature } from "./header.tsx";

export function HelpMenu({
  onFeature,
  onShortcuts,
}: {
  onFeature(feature: Feature): void;
  onShortcuts(): void;
}) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="icon-btn" aria-label="Help menu">
        <CircleHelp size={18} aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={8}>
          <DropdownMenu.Item
            className="menu__item"
            onSelect={() =>
              onFeature({
                title: "Send Feedback",
                text: "The feedback form with screenshots is coming soon. Until then, tell us what you think on the project's issue tracker.",
              })
            }
          >
            <Megaphone size={16} aria-hidden /> Send Feedback
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className="menu__item"
            onSelect={() =>
              onFeature({
                title: "Support docs",
                text: "Support documentation is coming soon. The README of this Redline installation describes how to run it.",
              })
            }
          >
            <BookOpen size={16} aria-hidden /> Support docs
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className="menu__item"
            onSelect={() =>
              onFeature({
                title: "What's New",
                text: "Release notes will appear here in a later version of Redline.",
              })
            }
          >
            <Sparkles size={16} aria-hidden /> What's New
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" onSelect={onShortcuts}>
            <Keyboard size={16} aria-hidden /> Keyboard Shortcuts
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
