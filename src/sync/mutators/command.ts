import * as v from 'valibot'

/**
 * A command the page sends (docs/SYNC.md, "Adding a command"): the schema of its arguments and its
 * local write. The arguments are checked where the command arrives from the page, before the write
 * runs, so that a bad one is refused with a clear error instead of becoming a row or an entry no
 * request can send. The checks are cheap (types and shapes): the fields themselves are checked by
 * the forms and, once sent, by the server.
 */
export interface Command<F extends (...args: never[]) => Promise<unknown>> {
  args: v.GenericSchema<unknown, Parameters<F>>
  run: F
}

/**
 * What the merged table of the mutator modules' commands satisfies (`COMMANDS`, index.ts). Each
 * module's table is left to its `command(…)` calls: checked there, a generic write (createRecord)
 * would be typed from this table instead of from itself.
 */
export type CommandTable = Record<
  string,
  {
    args: v.GenericSchema<unknown, readonly unknown[]>
    run: (...args: never[]) => Promise<unknown>
  }
>

/** A command: `run` and the schema of its arguments, tied to `run`'s parameters. */
/* @__NO_SIDE_EFFECTS__ */
export function command<F extends (...args: never[]) => Promise<unknown>>(
  args: v.GenericSchema<unknown, Parameters<NoInfer<F>>>,
  run: F,
): Command<F> {
  return { args, run }
}

/**
 * A check of `schema`'s shape whose output is read as `T`: for arguments whose every field is not
 * worth a schema here (a form's fields, a block). Only the check matters: a command runs with the
 * arguments as they came.
 */
/* @__NO_SIDE_EFFECTS__ */
export function shaped<T>(schema: v.GenericSchema): v.GenericSchema<unknown, T> {
  return schema as v.GenericSchema<unknown, T>
}

/**
 * A record's id: the server's, or a local one (negative) while its create waits (docs/SYNC.md,
 * "Ids").
 */
export const RecordId = v.pipe(v.number(), v.integer())

/** An object of fields (a form's). */
export const Fields = v.looseObject({})

/** The error a command with a bad argument is refused with: nothing was written. */
export class CommandArgumentError extends Error {
  override name = 'CommandArgumentError'
}

/**
 * Checks `args` against the command's schema and runs it with them as they came (the schema's
 * output is not used: a shape check must not drop a field).
 */
export function runChecked(
  name: string,
  { args: schema, run }: CommandTable[string],
  args: readonly unknown[],
): Promise<unknown> {
  const checked = v.safeParse(schema, args)
  if (!checked.success) {
    const [issue] = checked.issues
    return Promise.reject(new CommandArgumentError(`${name}: ${issue.message}${at(issue.path)}`))
  }
  return (run as (...a: readonly unknown[]) => Promise<unknown>)(...args)
}

/** Where in the arguments an issue is: « (argument 2.width)», the first argument being 1. */
function at(path: v.BaseIssue<unknown>['path']): string {
  if (!path) return ''
  const [first, ...rest] = path.map((step) => String(step.key))
  return ` (argument ${Number(first) + 1}${rest.map((key) => `.${key}`).join('')})`
}
