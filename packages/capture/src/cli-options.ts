/**
 * The capture CLI's arguments. Private, loopback and link-local targets follow the server's rule: in
 * production (NODE_ENV=production) they are refused unless --allow-private, so the CLI run on a server
 * cannot be pointed at its cloud metadata endpoint or internal services; elsewhere it is a local tool
 * and they are allowed unless --no-private.
 */
import { parseArgs } from "node:util";

export const USAGE =
  "Usage: capture <url> --out <dir> [--width 1280] [--timeout 45000] [--allow-private | --no-private]";

export interface CaptureCliOptions {
  url: string;
  out: string;
  width: number;
  timeoutMs: number;
  allowPrivateUrls: boolean;
}

/** The options, or the exit code to stop with after printing USAGE. */
export function parseCaptureCliArgs(
  args: string[],
  env: { NODE_ENV?: string } = {},
): CaptureCliOptions | { exitCode: number } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      out: { type: "string", short: "o" },
      width: { type: "string", short: "w", default: "1280" },
      timeout: { type: "string", default: "45000" },
      "allow-private": { type: "boolean", default: false },
      "no-private": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const url = positionals[0];
  const width = Number(values.width);
  const isValid =
    url && values.out && Number.isInteger(width) && width >= 200 && width <= 4000 && !values.help;
  if (!isValid || (values["allow-private"] && values["no-private"])) return { exitCode: values.help ? 0 : 2 };
  const isProduction = env.NODE_ENV === "production";
  return {
    url,
    out: values.out!,
    width,
    timeoutMs: Number(values.timeout),
    allowPrivateUrls: values["allow-private"] || (!isProduction && !values["no-private"]),
  };
}
