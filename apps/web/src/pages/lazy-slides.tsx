/**
 * The slide editor (Konva, Yjs) and the comments feature's panel for a slide, loaded only when an
 * illustration project opens: a member's (project-page.tsx) or a guest's of its public link (shared-view.tsx).
 */
import { lazy } from "react";

export const SlideEditor = lazy(() =>
  import("../features/slides/slide-editor.tsx").then((module) => ({ default: module.SlideEditor })),
);

/** The panel of a slide's comments, which the slide editor shows beside its stage. */
export const SlideCommentsPanel = lazy(() =>
  import("../features/comments/slide-comments-panel.tsx").then((module) => ({
    default: module.SlideCommentsPanel,
  })),
);
