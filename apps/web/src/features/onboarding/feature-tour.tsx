/**
 * The feature-tour carousel (SPEC §1): seven slides, the last seven hints in the SPEC's order. Previous /
 * Next buttons, one named dot per slide, ←/→ keys; Escape or the close button ends it (the modal's). The
 * current slide is announced politely to screen readers.
 */
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useEffect, useState } from "react";
import { Modal } from "../../components/modal.tsx";
import { TOUR_ILLUSTRATIONS, TOUR_TITLES } from "./tour-illustrations.tsx";
import { TOUR_SLIDES } from "./tour-slides.ts";
import "./onboarding.css";

export function FeatureTour({ open, onClose }: { open: boolean; onClose(): void }) {
  const [index, setIndex] = useState(0);
  const count = TOUR_SLIDES.length;
  const isLast = index === count - 1;
  const Illustration = TOUR_ILLUSTRATIONS[index]!;
  const go = (next: number) => setIndex(Math.min(count - 1, Math.max(0, next)));
  // ←/→ anywhere in the tour (it is modal: nothing else has the keyboard meanwhile).
  useEffect(() => {
    if (!open) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
      event.preventDefault();
      setIndex((current) =>
        Math.min(count - 1, Math.max(0, current + (event.key === "ArrowRight" ? 1 : -1))),
      );
    };
    window.addEventListener("keydown", handleKeyDown);
    return () => window.removeEventListener("keydown", handleKeyDown);
  }, [open]);

  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title="Welcome to Redline"
      description="A few things worth knowing, in seven short slides."
      footer={
        <div className="tour__controls">
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => go(index - 1)}
            disabled={index === 0}
            aria-label="Previous slide"
          >
            <ChevronLeft size={16} aria-hidden /> Previous
          </button>
          <fieldset className="tour__dots">
            <legend className="visually-hidden">Slides</legend>
            {TOUR_SLIDES.map((hint, dot) => (
              <button
                key={hint}
                type="button"
                className="tour__dot"
                aria-label={`Slide ${dot + 1} of ${count}: ${TOUR_TITLES[dot]}`}
                aria-current={dot === index ? "step" : undefined}
                onClick={() => go(dot)}
              />
            ))}
          </fieldset>
          {isLast ? (
            <button type="button" className="btn btn--primary" onClick={onClose}>
              Get started
            </button>
          ) : (
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => go(index + 1)}
              aria-label="Next slide"
            >
              Next <ChevronRight size={16} aria-hidden />
            </button>
          )}
        </div>
      }
    >
      <section className="tour__slide" aria-roledescription="slide" aria-label={`${index + 1} of ${count}`}>
        <Illustration />
        <div aria-live="polite" className="tour__text">
          <h3 className="tour__title">{TOUR_TITLES[index]}</h3>
          <p>{TOUR_SLIDES[index]}</p>
        </div>
      </section>
    </Modal>
  );
}
