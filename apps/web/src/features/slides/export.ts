/**
 * Exports of the deck: a slide as PNG, the deck as PNGs or as one PDF with a page per slide. The PDF is
 * written here — one JPEG image per 10:7 page (DCTDecode), a few dozen lines instead of a library.
 */
import { type Deck, orderedSlides, SLIDE_SIZE, type Slide } from "@redline/shared";
import { renderSlide } from "./slide-render.ts";

const EXPORT_WIDTH = 2000;

function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const fileName = (title: string) => title.replace(/[^\w\- ]+/g, "").trim() || "slides";

const blobOf = (canvas: HTMLCanvasElement, type: string, quality?: number) =>
  new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("export"))), type, quality),
  );

export async function exportSlidePng(slide: Slide, title: string, number: number): Promise<void> {
  const canvas = await renderSlide(slide, EXPORT_WIDTH);
  download(await blobOf(canvas, "image/png"), `${fileName(title)}-slide-${number}.png`);
}

/** A PDF of JPEG pages, each `pageWidth`×`pageHeight` points. */
export function pdfOfJpegs(
  pages: { jpeg: Uint8Array; width: number; height: number }[],
  pageWidth: number,
  pageHeight: number,
): Blob {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: Uint8Array | string) => {
    const bytes = typeof part === "string" ? encoder.encode(part) : part;
    parts.push(bytes);
    length += bytes.length;
  };
  const object = (id: number, body: () => void) => {
    offsets[id] = length;
    push(`${id} 0 obj\n`);
    body();
    push("\nendobj\n");
  };
  push("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n");
  // 1: catalog, 2: pages, then per page: page, content, image.
  const pageIds = pages.map((_, i) => 3 + i * 3);
  object(1, () => push("<< /Type /Catalog /Pages 2 0 R >>"));
  object(2, () =>
    push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`),
  );
  pages.forEach((page, i) => {
    const [pageId, contentId, imageId] = [3 + i * 3, 4 + i * 3, 5 + i * 3];
    object(pageId, () =>
      push(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth} ${pageHeight}] /Resources << /XObject << /Im${i} ${imageId} 0 R >> >> /Contents ${contentId} 0 R >>`,
      ),
    );
    const content = `q ${pageWidth} 0 0 ${pageHeight} 0 0 cm /Im${i} Do Q`;
    object(contentId, () => push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`));
    object(imageId, () => {
      push(
        `<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${page.jpeg.length} >>\nstream\n`,
      );
      push(page.jpeg);
      push("\nendstream");
    });
  });
  const xref = length;
  const count = 3 + pages.length * 3;
  push(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let id = 1; id < count; id++) push(`${String(offsets[id]).padStart(10, "0")} 00000 n \n`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Blob(parts as BlobPart[], { type: "application/pdf" });
}

export async function exportDeckPdf(deck: Deck, title: string): Promise<void> {
  const pages = [];
  for (const slide of orderedSlides(deck)) {
    const canvas = await renderSlide(slide, EXPORT_WIDTH / 2);
    const jpeg = new Uint8Array(await (await blobOf(canvas, "image/jpeg", 0.92)).arrayBuffer());
    pages.push({ jpeg, width: canvas.width, height: canvas.height });
  }
  // Points: 1000×700 px at 72 dpi, the slide's own size.
  download(pdfOfJpegs(pages, SLIDE_SIZE.width * 0.75, SLIDE_SIZE.height * 0.75), `${fileName(title)}.pdf`);
}
