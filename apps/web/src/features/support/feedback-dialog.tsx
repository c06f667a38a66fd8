/**
 * The feedback dialog (SPEC §2, §4 idle → sending → sent, §5, §7 sendFeedback): a text, and screenshots
 * the user drags out of the app itself — the dialog steps aside while they select, and comes back with
 * the picture. 'Sending...' while it goes; then the thanks and 'Send another feedback'.
 */
import {
  canSubmitFeedback,
  FEEDBACK_TEXTS,
  type FeedbackInput,
  type FeedbackState,
  MAX_FEEDBACK_SCREENSHOTS,
  MAX_SUPPORT_MESSAGE,
} from "@redline/shared";
import { useMutation } from "@tanstack/react-query";
import { Camera, CircleCheck, X } from "lucide-react";
import { type FormEvent, useCallback, useId, useState } from "react";
import { Modal } from "../../components/modal.tsx";
import { TextLimitNote, useTextLimit } from "../../components/text-limit.tsx";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { captureRegion, type Region } from "./capture-region.ts";
import { ScreenshotSelector } from "./screenshot-selector.tsx";
import "./feedback.css";
import { IconButton } from "../../components/icon-button.tsx";

export interface FeedbackDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Renders a region as a data URL (tests pass a stand-in; the app draws it with snapdom). */
  capture?: (region: Region) => Promise<string>;
}

export function FeedbackDialog({ open, onOpenChange, capture = captureRegion }: FeedbackDialogProps) {
  const id = useId();
  const [message, setMessage] = useState("");
  const [screenshots, setScreenshots] = useState<string[]>([]);
  const [isSelecting, setSelecting] = useState(false);
  const [isCapturing, setCapturing] = useState(false);
  const [captureError, setCaptureError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (input: FeedbackInput) =>
      api<{ message: string }>("/api/support/feedback", { method: "POST", body: input }),
  });
  const state: FeedbackState = send.isPending ? "sending" : send.isSuccess ? "sent" : "idle";
  const limit = useTextLimit(message, MAX_SUPPORT_MESSAGE, "feedback");

  const reset = () => {
    setMessage("");
    setScreenshots([]);
    setCaptureError(null);
    send.reset();
  };

  const handleOpenChange = (next: boolean) => {
    onOpenChange(next);
    if (!next) reset();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmitFeedback(message, state)) return;
    send.mutate({ message: message.trim(), screenshots, page: window.location.pathname });
  };

  const handleSelect = useCallback(
    async (region: Region) => {
      setSelecting(false);
      setCapturing(true);
      setCaptureError(null);
      try {
        const shot = await capture(region);
        setScreenshots((shots) => [...shots, shot].slice(0, MAX_FEEDBACK_SCREENSHOTS));
      } catch (error) {
        setCaptureError(error instanceof Error ? error.message : "The screenshot failed.");
      } finally {
        setCapturing(false);
      }
    },
    [capture],
  );
  const handleCancelSelect = useCallback(() => setSelecting(false), []);

  const canAddScreenshot = screenshots.length < MAX_FEEDBACK_SCREENSHOTS && state === "idle";
  const isSent = state === "sent";

  return (
    <>
      <Modal
        open={open && !isSelecting}
        onOpenChange={handleOpenChange}
        title="Send Feedback"
        description={isSent ? undefined : "Tell us what works, what doesn't and what you miss."}
        footer={
          isSent ? (
            <button type="button" className="btn btn--primary" onClick={reset}>
              {FEEDBACK_TEXTS.sendAnother}
            </button>
          ) : (
            <button
              type="submit"
              form={`${id}-form`}
              className="btn btn--primary"
              disabled={!canSubmitFeedback(message, state) || isCapturing}
            >
              {state === "sending" ? FEEDBACK_TEXTS.sending : FEEDBACK_TEXTS.submit}
            </button>
          )
        }
      >
        {isSent ? (
          <div className="feedback-sent" role="status">
            <CircleCheck size={40} aria-hidden className="feedback-sent__icon" />
            <p>{FEEDBACK_TEXTS.thanks}</p>
          </div>
        ) : (
          <form id={`${id}-form`} className="form-stack" onSubmit={handleSubmit}>
            <label className="visually-hidden" htmlFor={`${id}-message`}>
              {FEEDBACK_TEXTS.placeholder}
            </label>
            <textarea
              id={`${id}-message`}
              className="input feedback-message"
              rows={6}
              placeholder={FEEDBACK_TEXTS.placeholder}
              value={message}
              readOnly={state === "sending"}
              {...limit.control}
              onChange={(event) => setMessage(event.target.value)}
            />
            <TextLimitNote limit={limit} />
            {screenshots.length > 0 ? (
              <ul className="feedback-shots" aria-label="Screenshots">
                {screenshots.map((shot, index) => (
                  <li key={shot} className="feedback-shots__item">
                    <img src={shot} alt={`Screenshot ${index + 1}`} className="feedback-shots__image" />
                    {state === "idle" ? (
                      <IconButton
                        className="feedback-shots__remove"
                        label={`${FEEDBACK_TEXTS.removeScreenshot} ${index + 1}`}
                        icon={X}
                        iconSize={14}
                        title={FEEDBACK_TEXTS.removeScreenshot}
                        onClick={() => setScreenshots((shots) => shots.filter((_, at) => at !== index))}
                      />
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            {canAddScreenshot ? (
              <div className="feedback-take">
                <button
                  type="button"
                  className="btn"
                  disabled={isCapturing}
                  onClick={() => {
                    setCaptureError(null);
                    setSelecting(true);
                  }}
                >
                  <Camera size={16} aria-hidden />
                  {isCapturing
                    ? "Taking the screenshot..."
                    : screenshots.length > 0
                      ? FEEDBACK_TEXTS.takeAnother
                      : FEEDBACK_TEXTS.takeScreenshot}
                </button>
                <span className="feedback-take__hint">{FEEDBACK_TEXTS.dragHint}</span>
              </div>
            ) : null}
            {captureError ? (
              <p className="form-error" role="alert">
                {captureError}
              </p>
            ) : null}
            {send.isError ? (
              <p className="form-error" role="alert">
                {errorMessage(send.error)}
              </p>
            ) : null}
          </form>
        )}
      </Modal>
      {open && isSelecting ? (
        <ScreenshotSelector onSelect={handleSelect} onCancel={handleCancelSelect} />
      ) : null}
    </>
  );
}
