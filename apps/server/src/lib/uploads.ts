/**
 * Reads one uploaded file (multipart) of at most 5 MB and recognises it by its bytes: JPEG, PNG, WebP
 * or GIF images, or PDF. Anything else, or anything larger, is refused before it is stored.
 */
import { MAX_UPLOAD_BYTES, MESSAGES } from "@redline/shared";
import type { FastifyRequest } from "fastify";
import { BadRequestError, HttpError, PayloadTooLargeError } from "./errors.ts";
import { detectImage, IMAGE_FORMATS, isPdf } from "./images.ts";
import { storableText } from "./input-boundary.ts";

export interface Upload {
  bytes: Buffer;
  filename: string;
  kind: "image" | "pdf";
  contentType: string;
  ext: string;
}

/** One multipart file of at most 5 MB, whatever its type (413 'Max file size is 5 MB.' past that). */
export async function readFile(
  request: FastifyRequest,
): Promise<{ bytes: Buffer; filename: string; mimetype: string }> {
  if (!request.isMultipart())
    throw new BadRequestError("Send the file as multipart/form-data.", "expected-file");
  // A body that is not the multipart it claims (no boundary, another boundary, cut short) is the
  // client's error: 400, never the parser's exception as a 500.
  const unreadable = (error: { code?: string; statusCode?: number }) => {
    if (error.code === "FST_REQ_FILE_TOO_LARGE")
      return new PayloadTooLargeError(MESSAGES.maxFileSize, "max-file-size");
    if (error instanceof HttpError) return error;
    return new BadRequestError(
      "The upload could not be read: send one file as multipart/form-data.",
      "bad-multipart",
    );
  };
  const file = await request.file({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } }).catch((error) => {
    throw unreadable(error);
  });
  if (!file) throw new BadRequestError("No file was sent.", "expected-file");
  const bytes = await file.toBuffer().catch((error) => {
    throw unreadable(error);
  });
  if (file.file.truncated) throw new PayloadTooLargeError(MESSAGES.maxFileSize, "max-file-size");
  return { bytes, filename: storableName(file.filename), mimetype: storableName(file.mimetype) };
}

/** A client-chosen name as PostgreSQL can store it: at most 200 characters, no NUL, no lone surrogate. */
function storableName(name: string): string {
  return storableText(name).slice(0, 200);
}

export async function readUpload(request: FastifyRequest): Promise<Upload> {
  const { bytes, filename } = await readFile(request);
  if (isPdf(bytes)) return { bytes, filename, kind: "pdf", contentType: "application/pdf", ext: "pdf" };
  const image = await detectImage(bytes);
  if (!image)
    throw new BadRequestError("Upload a JPEG, PNG, WebP or GIF image, or a PDF.", "unsupported-file");
  return {
    bytes,
    filename,
    kind: "image",
    contentType: IMAGE_FORMATS[image.format],
    ext: image.format === "jpeg" ? "jpg" : image.format,
  };
}
