import { showsOffers, teamDisplayName, type User } from "@redline/shared";
import { useQueryClient } from "@tanstack/react-query";
import {
  ChevronDown,
  CreditCard,
  Gift,
  LifeBuoy,
  LogOut,
  Settings,
  ShieldCheck,
  Tag,
  Users,
} from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { Avatar } from "../../components/avatar.tsx";
import { useProduct } from "../../lib/use-product.ts";
import { confirmLeave } from "../session/leave-guard.ts";
import { endSession } from "../session/sign-out.ts";
import { pickTeam, savedTeamId, saveTeamId } from "../teams/active-team.ts";
import { useTeams } from "../teams/team-queries.ts";

export function ProfileMenu({
  user,
  onReferral,
  onContact,
}: {
  user: User;
  /** Refer & Earn: the referrals feature's modal, opened by the header. */
  onReferral(): void;
  /** Contact Us: the support feature's form, opened by the header. */
  onContact(): void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const product = useProduct();
  const [open, setOpen] = useState(false);
  // SPEC §2: the user's other teams of this product, read when the menu first opens.
  const { data: teams = [] } = useTeams(product, { enabled: open });
  const active = pickTeam(teams, product, savedTeamId(product));
  const otherTeams = teams.filter((team) => team.product === product && team.id !== active?.id);

  const handleSignOut = async () => {
    // Unsaved edits ask first: save and exit, exit without saving, or stay.
    if (!(await confirmLeave())) return;
    await endSession(queryClient);
    navigate("/", { replace: true });
  };

  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen}>
      <DropdownMenu.Trigger className="header__profile" aria-label="Profile menu">
        <Avatar name={user.displayName || user.email} photoURL={user.photoURL} size={30} />
        <ChevronDown size={14} aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={8}>
          <div className="menu__user">
            <Avatar name={user.displayName || user.email} photoURL={user.photoURL} size={36} />
            <div className="menu__user-text">
              <p className="menu__user-name">{user.displayName || "Unnamed user"}</p>
              <p className="menu__user-email">{user.email}</p>
            </div>
          </div>
          <DropdownMenu.Separator className="menu__separator" />
          {otherTeams.length > 0 ? (
            <DropdownMenu.Group aria-label="Your other teams">
              {otherTeams.map((team) => (
                <DropdownMenu.Item key={team.id} className="menu__item" asChild>
                  <Link to={`/team/${team.id}`} onClick={() => saveTeamId(product, team.id)}>
                    <Users size={16} aria-hidden /> {teamDisplayName(team)}
                  </Link>
                </DropdownMenu.Item>
              ))}
              <DropdownMenu.Separator className="menu__separator" />
            </DropdownMenu.Group>
          ) : null}
          <DropdownMenu.Item className="menu__item" asChild>
            <Link to="/profile">
              <Settings size={16} aria-hidden /> Account Settings
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" asChild>
            <Link to="/billing">
              <CreditCard size={16} aria-hidden /> My Plan
            </Link>
          </DropdownMenu.Item>
          {showsOffers(user.plans.web) ? (
            <DropdownMenu.Item className="menu__item" asChild>
              <Link to="/offers">
                <Tag size={16} aria-hidden /> Offers
              </Link>
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Item className="menu__item" onSelect={onReferral}>
            <Gift size={16} aria-hidden /> Refer &amp; Earn
          </DropdownMenu.Item>
          {user.isAdmin ? (
            <DropdownMenu.Item className="menu__item" asChild>
              <Link to="/admin">
                <ShieldCheck size={16} aria-hidden /> Instance admin
              </Link>
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Item className="menu__item" onSelect={onContact}>
            <LifeBuoy size={16} aria-hidden /> Contact Us
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu__separator" />
          <DropdownMenu.Item className="menu__item" onSelect={handleSignOut}>
            <LogOut size={16} aria-hidden /> Sign Out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
