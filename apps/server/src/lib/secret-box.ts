/**
 * Secrets kept at rest (an integration's signing secret, a service's tokens): sealed with AES-256-GCM
 * under a key derived from AUTH_SECRET (HKDF, its own label), so a database dump alone reveals none.
 * Changing AUTH_SECRET makes what was sealed unreadable: the integration must be connected again.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";

export interface SecretBox {
  seal(value: unknown): string;
  open<T>(sealed: string): T;
}

export function secretBox(authSecret: string, label = "redline integration secrets"): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", authSecret, "", label, 32));
  return {
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open<T>(sealed: string): T {
      const [version, data] = sealed.split(".");
      if (version !== VERSION || !data) throw new Error("not a sealed secret");
      const bytes = Buffer.from(data, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
      return JSON.parse(text) as T;
    },
  };
}
