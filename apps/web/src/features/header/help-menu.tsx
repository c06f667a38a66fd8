/**
 * The header's help menu (SPEC §2): Send Feedback and What's New open the support dialogs (rendered by
 * the app layout), Support docs opens this installation's documentation (DOCS_URL) or the guide shipped
 * with the app at /help, Keyboard Shortcuts the shortcuts drawer.
 */
import { BookOpen, CircleHelp, Keyboard, Megaphone, Sparkles } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { Link } from "react-router";
import { usePublicConfig } from "../../lib/use-product.ts";
import { openSupportDialog } from "../support/support-store.ts";

export function HelpMenu({ onShortcuts }: { onShortcuts(): void }) {
  const { data: config } = usePublicConfig();
  const docsUrl = config?.docsUrl ?? null;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="icon-btn" aria-label="Help menu">
        <CircleHelp size={18} aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={8}>
          <DropdownMenu.Item className="menu__item" onSelect={() => openSupportDialog("feedback")}>
            <Megaphone size={16} aria-hidden /> Send Feedback
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" asChild>
            {docsUrl ? (
              <a href={docsUrl} target="_blank" rel="noopener noreferrer">
                <BookOpen size={16} aria-hidden /> Support docs
              </a>
            ) : (
              <Link to="/help">
                <BookOpen size={16} aria-hidden /> Support docs
              </Link>
            )}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" onSelect={() => openSupportDialog("whats-new")}>
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
