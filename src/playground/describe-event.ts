/**
 * @module One event of the widget's contract (docs/events.md) as a line of the playground's event log: its
 * type, then each payload field as `key=value`, an offer as `name @position #rank`.
 */
import type { OfferWidgetEvent } from '../widget/events/widget-event.ts'

const short = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(short).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    const offer = value as { name?: unknown; position?: unknown; rank?: unknown }
    return `${offer.name} @${offer.position} #${offer.rank}`
  }
  return String(value)
}

export function describeEvent(event: OfferWidgetEvent): string {
  const { type, ...payload } = event
  return [
    type,
    ...Object.entries(payload)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${short(value)}`),
  ].join(' ')
}
