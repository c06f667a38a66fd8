/**
 * The app header (SPEC §2): 55 px, the back button (shell-rules.ts), logo, Projects and Team links, inbox
 * icons, help and profile menus; transparent with a white logo on /projects past 100 px of scrolling.
 */
import type { User } from "@redline/shared";
import { ArrowLeft } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { BrandLink } from "../../components/brand-link.tsx";
import { HelpMenu } from "./help-menu.tsx";
import { InboxButtons } from "./inbox-buttons.tsx";
import { KeyboardShortcuts } from "./keyboard-shortcuts.tsx";
import { ProductSwitcher } from "./product-switcher.tsx";
import { ProfileMenu } from "./profile-menu.tsx";
import { backTarget } from "./shell-rules.ts";
import { useTransparentHeader } from "./use-transparent-header.ts";
import "./header.css";

/**
 * `bell`: the notifications bell (the notifications feature's), placed among the inbox buttons;
 * `messages`: the messages icon (the conversations feature's), beside it.
 * `brand`: the active team's logo, shown instead of Redline's when its branding applies (SPEC §2).
 * `onContact`: Contact Us from the profile menu.
 */
export function Header({
  user,
  bell,
  messages,
  brand = null,
  onContact,
  onReferral,
}: {
  user: User;
  bell: ReactNode;
  messages: ReactNode;
  brand?: { name: string; logoURL: string | null } | null;
  /** Opens Contact Us (the support feature's form, rendered by the layout). */
  onContact(): void;
  /** Opens Refer & Earn (the referrals feature's modal, rendered by the layout). */
  onReferral(): void;
}) {
  const [isShortcutsOpen, setShortcutsOpen] = useState(false);
  const { pathname } = useLocation();
  const back = backTarget(pathname);
  // SPEC §2: on /projects, past 100 px of scrolling, transparent with a white logo.
  const isTransparent = useTransparentHeader(pathname);

  return (
    <header
      className={isTransparent ? "header header--transparent" : "header"}
      data-transparent={isTransparent || undefined}
    >
      <div className="header__left">
        {back ? (
          <Link to={back.to} className="icon-btn header__back" aria-label={back.label}>
            <ArrowLeft size={18} aria-hidden />
          </Link>
        ) : null}
        {brand?.logoURL ? (
          <Link
            to="/projects"
            className="brand-link header__logo"
            aria-label={`${brand.name}, go to projects`}
          >
            <img className="header__brand-logo" src={brand.logoURL} alt={brand.name} />
          </Link>
        ) : (
          <BrandLink
            to="/projects"
            className="header__logo"
            label="Redline, go to projects"
            textClassName="header__logo-text"
          />
        )}
        <ProductSwitcher />
        <nav className="header__nav" aria-label="Main">
          <NavLink to="/projects" className="header__nav-link">
            Projects
          </NavLink>
          <NavLink to="/team" className="header__nav-link">
            Team
          </NavLink>
        </nav>
      </div>
      <div className="header__right">
        <InboxButtons bell={bell} messages={messages} />
        <HelpMenu onShortcuts={() => setShortcutsOpen(true)} />
        <ProfileMenu user={user} onReferral={onReferral} onContact={onContact} />
      </div>
      <KeyboardShortcuts open={isShortcutsOpen} onOpenChange={setShortcutsOpen} />
    </header>
  );
}
