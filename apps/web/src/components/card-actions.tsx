/**
 * The place on a comment thread, an edit suggestion and a ticket where the cards made from it in the
 * project's task trackers show. The features that own those screens render <CardActions>; the layout
 * supplies what fills it (features/integrations), so no feature imports another's components.
 * Unsupplied (e.g. a link guest's view), it renders nothing.
 */
import type { CardSubject } from "@redline/shared";
import { createContext, type ReactNode, useContext } from "react";

export interface CardActionsProps {
  projectId: string;
  subject: CardSubject;
  subjectId: string;
  /** May create and delete cards (the project's integrations are theirs to manage). */
  canManage: boolean;
}

const Slot = createContext<((props: CardActionsProps) => ReactNode) | null>(null);

export const CardActionsProvider = Slot.Provider;

export function CardActions(props: CardActionsProps) {
  const render = useContext(Slot);
  return render ? render(props) : null;
}
