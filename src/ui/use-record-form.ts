import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
} from 'react'
import * as v from 'valibot'
import { registerOpenForm, takeDraft } from './draft-carry.ts'
import { errorMessage, fieldErrorText, issuesToFieldErrors } from './field-error.ts'
import { notifyError } from './notify.tsx'
import { sameValue } from '../domain/same-value.ts'

export type FieldErrors = Record<string, string | undefined>

export interface RecordForm<Values extends object> {
  values: Values
  /** Client errors, then the server's errors of fields not edited since they arrived. */
  errors: FieldErrors
  dirty: boolean
  /** Read at navigation time (the leave warning), after a save has already cleared it. */
  isDirty: () => boolean
  submitting: boolean
  set: <K extends keyof Values>(field: K, value: Values[K]) => void
  onSubmit: (event?: FormEvent) => void
  /**
   * The record changed elsewhere (another person, another tab) while this form had unsaved edits:
   * the edits stay; `reload` takes the record as it is now. Without edits the form just follows.
   */
  outdated: boolean
  reload: () => void
}

/** Whether any field of `values` differs from `from`. */
function differs<Values extends object>(values: Values, from: Values): boolean {
  return (Object.keys(values) as (keyof Values)[]).some((key) => !sameValue(values[key], from[key]))
}

/**
 * Form state for a record: validates with the domain's valibot schema (messages in the user's
 * language through field-error), tracks unsaved edits for the leave warning, and shows field errors
 * the server sent for this record (a rejected change) until the user edits that field.
 */
export function useRecordForm<Values extends object, S extends v.GenericSchema>(options: {
  initial: Values
  schema: S
  /** Shapes the values into the schema's input (e.g. drops an untouched secret). */
  toInput?: (values: Values) => unknown
  submit: (output: v.InferOutput<S>, values: Values) => Promise<unknown>
  /** After a successful submit, once leaving no longer warns (navigate from here). */
  onSaved?: (result: unknown) => void
  serverErrors?: FieldErrors
  /** `table:id` of the record: unsaved values follow the record to its new id (draft-carry.ts). */
  draftKey?: string
  /** Turns a failed submit into a sentence (default: field-error's errorMessage). */
  describeError?: (error: unknown) => string
}): RecordForm<Values> {
  const [baseline, setBaseline] = useState(options.initial)
  const [values, setValues] = useState(
    () =>
      (options.draftKey ? (takeDraft(options.draftKey) as Values | undefined) : undefined) ??
      options.initial,
  )
  const [clientErrors, setClientErrors] = useState<FieldErrors>({})
  const [editedSinceServer, setEdited] = useState<ReadonlySet<string>>(new Set())
  const [submitting, setSubmitting] = useState(false)
  const serverKey = JSON.stringify(options.serverErrors ?? {})
  const [seenServerKey, setSeenServerKey] = useState(serverKey)

  // New server errors (another rejected attempt) show again even on fields edited before.
  if (seenServerKey !== serverKey) {
    setSeenServerKey(serverKey)
    setEdited(new Set())
  }

  // The record changed under the form (a live change, a refresh): follow it when nothing was
  // edited, else keep the person's values and say so.
  const initialKey = JSON.stringify(options.initial)
  const [startKey, setStartKey] = useState(initialKey)
  const [outdated, setOutdated] = useState(false)
  if (initialKey !== startKey) {
    setStartKey(initialKey)
    const edited = differs(values, baseline)
    setBaseline(options.initial)
    if (!edited) setValues(options.initial)
    setOutdated(edited && differs(values, options.initial))
  }
  const { initial } = options
  const reload = useCallback(() => {
    setValues(initial)
    setBaseline(initial)
    setOutdated(false)
  }, [initial])

  const dirty = useMemo(() => differs(values, baseline), [values, baseline])
  const dirtyRef = useRef(dirty)
  const valuesRef = useRef(values)
  useLayoutEffect(() => {
    dirtyRef.current = dirty
    valuesRef.current = values
  })
  const { draftKey } = options
  useEffect(() => {
    if (!draftKey) return
    return registerOpenForm(draftKey, () => (dirtyRef.current ? valuesRef.current : undefined))
  }, [draftKey])
  const isDirty = useCallback(() => dirtyRef.current, [])

  const set = useCallback(<K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((prev) => ({ ...prev, [field]: value }))
    setClientErrors((prev) => (prev[field as string] ? { ...prev, [field]: undefined } : prev))
    setEdited((prev) => (prev.has(field as string) ? prev : new Set(prev).add(field as string)))
  }, [])

  const errors: FieldErrors = {}
  for (const [field, message] of Object.entries(options.serverErrors ?? {}))
    if (message && !editedSinceServer.has(field)) errors[field] = fieldErrorText(message)
  for (const [field, message] of Object.entries(clientErrors)) if (message) errors[field] = message

  const { schema, toInput, submit, onSaved } = options
  const onSubmit = (event?: FormEvent) => {
    event?.preventDefault()
    if (submitting) return
    const parsed = v.safeParse(schema, toInput ? toInput(values) : values)
    if (!parsed.success) {
      setClientErrors(issuesToFieldErrors(parsed.issues))
      return
    }
    setClientErrors({})
    setSubmitting(true)
    const submitted = values
    submit(parsed.output, submitted)
      .then((result) => {
        // Saved: leaving is no longer a loss, even before React re-renders.
        dirtyRef.current = false
        setBaseline(submitted)
        onSaved?.(result)
      })
      .catch((error: unknown) => notifyError((options.describeError ?? errorMessage)(error)))
      .finally(() => setSubmitting(false))
  }

  return { values, errors, dirty, isDirty, submitting, set, onSubmit, outdated, reload }
}
