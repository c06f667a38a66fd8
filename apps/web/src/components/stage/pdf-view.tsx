/**
 * A PDF version: every page drawn by pdf.js into its own canvas, labelled 'Page N'. pdf.js (and its
 * worker, bundled by Vite) loads only when a PDF is opened. The file comes from the content origin,
 * which allows the app's origin by CORS.
 */

import { MESSAGES } from "@redline/shared";
import type { PDFDocumentProxy, RenderTask } from "pdfjs-dist";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { LoadingView } from "../loading-view.tsx";
import { useElementSize } from "./use-element-size.ts";

const MAX_PAGE_WIDTH = 960;

async function openPdf(url: string): Promise<PDFDocumentProxy> {
  const pdfjs = await import("pdfjs-dist");
  pdfjs.GlobalWorkerOptions.workerSrc = new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url).href;
  return pdfjs.getDocument({ url, withCredentials: false }).promise;
}

export function PdfView({
  url,
  title,
  decorate,
}: {
  url: string;
  title: string;
  /** Wraps each page's canvas (comment pins). */
  decorate?: (page: number, canvas: ReactNode) => ReactNode;
}) {
  const container = useRef<HTMLDivElement>(null);
  const { width } = useElementSize(container);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current: PDFDocumentProxy | null = null;
    let isCancelled = false;
    setDoc(null);
    setError(null);
    openPdf(url).then(
      (opened) => {
        current = opened;
        if (isCancelled) void opened.destroy();
        else setDoc(opened);
      },
      (reason: unknown) => {
        if (!isCancelled) setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
    return () => {
      isCancelled = true;
      void current?.destroy();
    };
  }, [url]);

  const pageWidth = Math.min(MAX_PAGE_WIDTH, Math.max(0, width - 48));
  return (
    <div ref={container} className="pdf-view" aria-label={`PDF: ${title}`} role="document">
      {error ? (
        <div className="viewer-message" role="alert">
          <p className="viewer-message__title">{MESSAGES.pageLoadFailed}</p>
          <p className="viewer-message__text">{error}</p>
        </div>
      ) : !doc ? (
        <LoadingView text="Loading PDF..." />
      ) : pageWidth > 0 ? (
        Array.from({ length: doc.numPages }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: pages of one document are identified by number
          <PdfPage key={index} doc={doc} number={index + 1} width={pageWidth} decorate={decorate} />
        ))
      ) : null}
    </div>
  );
}

function PdfPage({
  doc,
  number,
  width,
  decorate,
}: {
  doc: PDFDocumentProxy;
  number: number;
  width: number;
  decorate?: (page: number, canvas: ReactNode) => ReactNode;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [isRendered, setRendered] = useState(false);

  useEffect(() => {
    let task: RenderTask | null = null;
    let isCancelled = false;
    void doc.getPage(number).then((page) => {
      const element = canvas.current;
      if (isCancelled || !element) return;
      const base = page.getViewport({ scale: 1 });
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (width / base.width) * ratio });
      element.width = Math.floor(viewport.width);
      element.height = Math.floor(viewport.height);
      element.style.width = `${Math.floor(viewport.width / ratio)}px`;
      element.style.height = `${Math.floor(viewport.height / ratio)}px`;
      task = page.render({ canvas: element, viewport });
      task.promise.then(
        () => !isCancelled && setRendered(true),
        () => undefined, // cancelled by a re-render at another width
      );
    });
    return () => {
      isCancelled = true;
      task?.cancel();
    };
  }, [doc, number, width]);

  const pageCanvas = (
    <canvas
      ref={canvas}
      className="pdf-page__canvas"
      role="img"
      aria-label={`Page ${number}`}
      data-rendered={isRendered ? "true" : undefined}
    />
  );
  return (
    <figure className="pdf-page">
      {decorate ? decorate(number, pageCanvas) : pageCanvas}
      <figcaption className="pdf-page__caption">Page {number}</figcaption>
    </figure>
  );
}
