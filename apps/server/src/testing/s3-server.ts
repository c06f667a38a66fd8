import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/** An S3-compatible store on loopback (s3rver) with one bucket, in a temporary folder. */
export async function startS3Server(bucket = "files") {
  const directory = await mkdtemp(path.join(os.tmpdir(), "redline-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as AddressInfo;
  return {
    port,
    directory,
    /** The app's S3 settings for this store, through `endpointPort` (a proxy in front) if given. */
    options: (endpointPort = port) => ({
      bucket,
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${endpointPort}`,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    }),
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
