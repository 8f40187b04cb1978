import { ask } from './ask-op.ts';
import { edit, session } from './chat-ops.ts';
import { list } from './list-op.ts';
import { create, remove, update } from './listing-ops.ts';
import { type Operation, PATHS } from './routes.ts';
import type { Handler } from './state.ts';

/** Every operation of the spec (plus GetSession), at the paths of `PATHS`. */
export const HANDLERS: Record<Operation, Handler> = {
  edit,
  session,
  ask,
  create,
  update,
  list,
  delete: remove,
};

// Routes of an ASP.NET-style backend match paths case-insensitively; so does the sandbox.
const BY_PATH = new Map(
  Object.entries(PATHS).map(([operation, path]) => [path.toLowerCase(), operation as Operation]),
);

/** The operation served at `pathname`, or undefined. */
export function operationAt(pathname: string): Operation | undefined {
  return BY_PATH.get(pathname.toLowerCase());
}
