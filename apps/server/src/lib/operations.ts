/**
 * An operation is one write of the product, callable by anything that has a principal: an HTTP handler,
 * the MCP server, an integration, the extension (ADR 0033). It is one exported function with its input
 * schema beside it; it parses its input, authorizes the caller through its entity's policy, runs its
 * transaction (recording what happened into the ledger inside it), does what follows the commit (mail),
 * and returns its result. A handler only reads the request into the input and sends the result back; no
 * route handler opens a transaction (operations.test.ts holds the line).
 */
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { BadRequestError } from "./errors.ts";

declare const fromRequest: unique symbol;
/** A request's body fields and path parameters, not validated yet (the operation parses them). */
export type RequestInput = Record<string, unknown> & { readonly [fromRequest]: true };

/** What an HTTP request gives an operation: its JSON body's fields and its path's parameters (these win). */
export function requestInput(request: { body?: unknown; params?: unknown }): RequestInput {
  const { body } = request;
  if (body !== undefined && body !== null && (typeof body !== "object" || Array.isArray(body)))
    throw new BadRequestError("The request body must be a JSON object.", "validation");
  return { ...(body as object | undefined), ...(request.params as object | undefined) } as RequestInput;
}

/**
 * An operation's input made of a path's parameters and a body schema's fields, each parsed by its own
 * schema (a body's refinements and strictness hold; `.extend` would drop the refinements).
 */
export function withParams<Params extends z.ZodRawShape, Body extends z.ZodType<object>>(
  params: z.ZodObject<Params>,
  body: Body,
) {
  const names = Object.keys(params.shape);
  return z.record(z.string(), z.unknown()).transform((raw, ctx) => {
    const pathPart = params.safeParse(Object.fromEntries(names.map((name) => [name, raw[name]])));
    const bodyPart = body.safeParse(
      Object.fromEntries(Object.entries(raw).filter(([name]) => !names.includes(name))),
    );
    for (const issue of [...(pathPart.error?.issues ?? []), ...(bodyPart.error?.issues ?? [])])
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    if (!pathPart.success || !bodyPart.success) return z.NEVER;
    return { ...bodyPart.data, ...pathPart.data } as z.output<Body> & z.output<z.ZodObject<Params>>;
  });
}

export interface Operation<Input extends z.ZodType, Caller, Result, Ctx extends AppContext = AppContext> {
  (ctx: Ctx, caller: Caller, input: z.input<Input> | RequestInput): Promise<Result>;
  /** Stable and unique, "{module}.{verb}" — the name a log line, an audit row or a tool uses. */
  readonly operationName: string;
  readonly input: Input;
}

/** The context of an operation that logs (what a failure after the commit leaves behind): the request's log. */
export type LoggedContext = AppContext & { log: FastifyBaseLogger };

const registry = new Map<string, Operation<z.ZodType, never, unknown, never>>();

/** `Ctx` is the app's context, or more where an operation needs a service of its own (the DNS). */
export function operation<Input extends z.ZodType, Caller, Result, Ctx extends AppContext = AppContext>(
  name: string,
  input: Input,
  run: (ctx: Ctx, caller: Caller, input: z.output<Input>) => Promise<Result>,
): Operation<Input, Caller, Result, Ctx> {
  if (registry.has(name)) throw new Error(`two operations are named ${name}`);
  // Parsed here whoever calls: a caller other than HTTP gets the same validation and the same 400.
  const perform = async (ctx: Ctx, caller: Caller, raw: z.input<Input> | RequestInput) =>
    run(ctx, caller, input.parse(raw));
  const op = Object.assign(perform, { operationName: name, input });
  registry.set(name, op as unknown as Operation<z.ZodType, never, unknown, never>);
  return op;
}

/** Every operation defined so far (those of the modules imported), by name. */
export function registeredOperations(): ReadonlyMap<string, Operation<z.ZodType, never, unknown, never>> {
  return registry;
}
