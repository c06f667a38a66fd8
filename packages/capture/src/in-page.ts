/**
 * A function plus its argument as a self-contained expression for `page.evaluate`. Under tsx,
 * esbuild's keepNames wraps inner functions in `__name(...)`, a helper that does not exist in the
 * page; the expression brings a local no-op one, so the same code runs under tsx and Vitest.
 */
export function inPage<A, R>(fn: (arg: A) => R, arg: A): string {
  return `(${inPageFunction(fn)})(${JSON.stringify(arg)})`;
}

/** The same function as the source of a self-contained one (CDP's `Runtime.callFunctionOn`). */
export function inPageFunction<A, R>(fn: (arg: A) => R): string {
  return `function (arg) { const __name = (f) => f; return (${fn.toString()})(arg); }`;
}
