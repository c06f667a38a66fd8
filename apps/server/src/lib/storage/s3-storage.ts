/**
 * S3 (or any S3-compatible service) behind the Storage interface, through the official AWS SDK. Chosen
 * when S3_BUCKET is set; S3_ENDPOINT points it at a compatible service (MinIO, R2, a local test server).
 */
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { isValidKey, type Storage } from "./storage.ts";

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /**
   * How long one attempt may wait for a connection, and for an answer, before it fails (the SDK tries
   * three times); a store that does not answer then makes a 503, never a request that hangs.
   */
  timeoutsMs?: { connection: number; request: number };
}

const TIMEOUTS_MS = { connection: 3000, request: 15_000 };

export function createS3Storage(options: S3Options): Storage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    requestHandler: {
      connectionTimeout: (options.timeoutsMs ?? TIMEOUTS_MS).connection,
      requestTimeout: (options.timeoutsMs ?? TIMEOUTS_MS).request,
      throwOnRequestTimeout: true,
    },
  });
  const checked = (key: string) => {
    if (!isValidKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return key;
  };
  return {
    async put(key, data) {
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: checked(key),
          Body: data,
          ContentLength: data.length,
          CacheControl: "private, max-age=31536000",
        }),
      );
    },
    async get(key) {
      if (!isValidKey(key)) return null;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: key }));
        return { stream: object.Body as Readable, size: object.ContentLength ?? 0 };
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return null;
        throw error;
      }
    },
    async size(key) {
      if (!isValidKey(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        // A HEAD answer has no body, so a missing object is a bare 404 (NotFound), not NoSuchKey.
        const name = (error as { name?: string }).name;
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (name === "NotFound" || name === "NoSuchKey" || status === 404) return null;
        throw error;
      }
    },
    async putContentAddressed(key, data) {
      // An S3 PUT is atomic (the object is whole or absent): writing the same bytes again is harmless.
      await this.put(key, data);
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: checked(key) }));
    },
    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: options.bucket, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? [])
          if (object.Key) yield { key: object.Key, modifiedAt: object.LastModified ?? new Date(0) };
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
