import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/auth-client.ts";

/**
 * Applies a mailed link's code once — a code works once, and React may run effects twice in
 * development — and answers the failure's text (null while it runs or once it succeeded).
 */
export function useLinkCode(apply: () => Promise<void>): string | null {
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const applyRef = useRef(apply);
  applyRef.current = apply;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    applyRef.current().catch((caught: unknown) => setError(errorMessage(caught)));
  }, []);
  return error;
}
