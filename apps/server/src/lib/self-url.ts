import type { AppConfig } from "../env.ts";

/** The address this process answers on, for calling itself (the embedded stand-ins it serves). */
export function selfUrl(config: Pick<AppConfig, "host" | "port">): string {
  const host = ["localhost", "0.0.0.0", "::", ""].includes(config.host) ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}
