import type { AppConfig } from "../env.ts";
import { createS3Storage } from "../lib/storage/s3-storage.ts";
import { createLocalStorage, type Storage } from "../lib/storage/storage.ts";

/** The file store the app uses under this configuration (S3 when S3_BUCKET is set, else DATA_DIR/files). */
export function storageFor(config: AppConfig): Storage {
  return config.s3 ? createS3Storage(config.s3) : createLocalStorage(config.filesDir);
}
