import { useCallback, useRef, useState, type FormEvent } from 'react'
import * as v from 'valibot'
import { apiFieldErrors, errorMessage, issuesToFieldErrors } from '../../ui/field-error.ts'
import { hideNotification, notifyError } from '../../ui/notify.tsx'

export interface FormState<Values extends Record<string, string>> {
  values: Values
  errors: Partial<Record<keyof Values | '_', string>>
  submitting: boolean
  set: <K extends keyof Values>(field: K) => (value: string) => void
  onSubmit: (event?: FormEvent) => void
}

/**
 * A small form controller: validates with a domain valibot schema first (messages in the user's
 * language through ui/field-error), then submits; server field errors (ApiError.fields) land on
 * their fields, every other failure is the form's own message, `errors._`, which the form shows next
 * to its button (FormAlert). Sign-in forms also show it as a red «Ошибка» notification.
 */
export function useFormState<Values extends Record<string, string>, S extends v.GenericSchema>(
  initial: Values,
  schema: S,
  submit: (input: v.InferOutput<S>) => Promise<void>,
  options: {
    /** Extra client checks after the schema (e.g. "passwords differ"). */
    check?: (values: Values) => Partial<Record<keyof Values, string>>
    /** Also show a failure as a red «Ошибка» notification, even when the server named fields. */
    alwaysNotify?: boolean
  } = {},
): FormState<Values> {
  const [values, setValues] = useState(initial)
  const [errors, setErrors] = useState<FormState<Values>['errors']>({})
  const [submitting, setSubmitting] = useState(false)
  // The form's last error notification: a new attempt replaces it, success removes it.
  const notice = useRef<string | null>(null)
  const hideNotice = () => {
    if (notice.current) hideNotification(notice.current)
    notice.current = null
  }

  const set = useCallback(
    <K extends keyof Values>(field: K) =>
      (value: string) => {
        setValues((prev) => ({ ...prev, [field]: value }))
        setErrors((prev) => (prev[field] ? { ...prev, [field]: undefined } : prev))
      },
    [],
  )

  const onSubmit = (event?: FormEvent) => {
    event?.preventDefault()
    if (submitting) return
    const parsed = v.safeParse(schema, values)
    const extra = options.check?.(values) ?? {}
    if (!parsed.success || Object.values(extra).some(Boolean)) {
      const fieldErrors = parsed.success ? {} : issuesToFieldErrors(parsed.issues)
      setErrors({ ...fieldErrors, ...extra } as FormState<Values>['errors'])
      return
    }
    setErrors({})
    setSubmitting(true)
    hideNotice()
    submit(parsed.output)
      .catch((error: unknown) => {
        const fields = apiFieldErrors(error)
        const known = Object.keys(fields).filter((key) => key in values)
        if (known.length > 0) setErrors(fields as FormState<Values>['errors'])
        else setErrors({ _: errorMessage(error) } as FormState<Values>['errors'])
        if (options.alwaysNotify) notice.current = notifyError(errorMessage(error))
      })
      .finally(() => setSubmitting(false))
  }

  return { values, errors, submitting, set, onSubmit }
}
