import type { DatabaseHandle } from "./db/index.ts";
import type { AppConfig } from "./env.ts";
import type { Ledger } from "./lib/ledger.ts";
import type { Mailer } from "./lib/mail/mailer.ts";
import type { Queue } from "./lib/queue.ts";
import type { Storage } from "./lib/storage/storage.ts";
import type { Auth } from "./modules/auth/auth.ts";
import type { IsTrustedOrigin } from "./modules/teams/trusted-origins.ts";
import type { VideoUploads } from "./modules/videos/uploads.ts";

/** What every route module receives: the providers chosen for this process. */
export interface AppContext {
  config: AppConfig;
  database: DatabaseHandle;
  auth: Auth;
  mailer: Mailer;
  storage: Storage;
  queue: Queue;
  /** What happened, recorded by writes and read by consumers (lib/ledger.ts). */
  ledger: Ledger;
  /** The one trusted-origins rule (APP_URL, BROWSE_URL, active custom domains): CSRF, better-auth, realtime. */
  isTrustedOrigin: IsTrustedOrigin;
  /** Resumable video uploads (tus) on the file store's kind (modules/videos/uploads.ts). */
  videoUploads: VideoUploads;
}
