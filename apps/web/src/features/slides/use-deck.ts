/**
 * The deck of a project for a React view: the tab's DeckSync, the deck as JSON after every change (local
 * or another editor's), the sync status and who else is here. Waiting edits are sent before the tab goes
 * away (pagehide) and when the view unmounts (navigation inside the app).
 */
import type { Deck, DeckPresence } from "@redline/shared";
import { useEffect, useMemo, useState } from "react";
import { deckOf } from "./deck-model.ts";
import { DeckSync, PRESENCE_TTL_MS, type SyncStatus } from "./deck-sync.ts";

export interface DeckView {
  sync: DeckSync;
  deck: Deck;
  status: SyncStatus;
  canEdit: boolean;
  others: DeckPresence[];
  isLoaded: boolean;
  loadError: boolean;
  retry(): void;
}

/** `guestIdentity`: read through the public link (read only), present under that identity. */
export function useDeck(projectId: string, guestIdentity: string | null = null): DeckView {
  const isGuest = guestIdentity !== null;
  // A guest naming themselves keeps the deck as loaded: only their presence takes the new name.
  const sync = useMemo(() => new DeckSync(projectId, isGuest ? "public" : null), [projectId, isGuest]);
  if (isGuest) sync.guestIdentity = guestIdentity;
  const [version, setVersion] = useState(0);
  /** Moves with the document only (status and presence bump `version` alone). */
  const [docVersion, setDocVersion] = useState(0);
  const [isLoaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the load after a failure
  useEffect(() => {
    let live = true;
    const bump = () => live && setVersion((v) => v + 1);
    const bumpDoc = () => live && setDocVersion((v) => v + 1);
    sync.doc.on("update", bumpDoc);
    const off = sync.onChange(bump);
    setLoadError(false);
    sync
      .start()
      .then(() => live && setLoaded(true))
      .catch(() => live && setLoadError(true));
    const onHide = () => sync.flush();
    window.addEventListener("pagehide", onHide);
    // Presence fades when not repeated: look again now and then.
    const tick = setInterval(bump, PRESENCE_TTL_MS / 3);
    return () => {
      live = false;
      window.removeEventListener("pagehide", onHide);
      clearInterval(tick);
      sync.doc.off("update", bumpDoc);
      off();
      sync.stop();
    };
  }, [sync, attempt]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `docVersion` is the document's change counter
  const deck = useMemo(() => deckOf(sync.slides), [sync, docVersion]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` moves with presence too
  const others = useMemo(() => sync.others(), [sync, version]);
  return {
    sync,
    deck,
    status: sync.status,
    canEdit: sync.canEdit,
    others,
    isLoaded,
    loadError,
    retry: () => setAttempt((n) => n + 1),
  };
}
