/**
 * @module A form's events (docs/events.md), for the search form and the loan application alike: its view
 * when it appears, the visitor's first change, each field a check refused, a sent form. A refused field is
 * reported as `required` (blank) or `invalid` (holding something not taken), never with its value. A tuple,
 * not an object: its names would stay in the script-tag bundle.
 */
import { useEffect, useRef } from 'react'
import type { OfferWidgetEvent, WidgetForm } from './widget-event.ts'

type Emit = ((event: OfferWidgetEvent) => void) | undefined

export function useFormEvents(form: WidgetForm, emit: Emit) {
  const started = useRef(false)
  const viewed = useRef(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: on appearing only (once under StrictMode's second effect too)
  useEffect(() => {
    if (!viewed.current) emit?.({ type: 'form_view', form })
    viewed.current = true
  }, [])
  const start = (field: string) => {
    if (!started.current) emit?.({ type: 'form_start', form, field })
    started.current = true
  }
  const refuse = (field: string, value: unknown) =>
    emit?.({
      type: 'form_field_error',
      form,
      field,
      error: (typeof value === 'string' ? value.trim() : value) ? 'invalid' : 'required',
    })
  const send = () => emit?.({ type: 'form_submit', form })
  return [start, refuse, send] as const
}
