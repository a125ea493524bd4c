/**
 * @module The `<OfferWidget>` the npm package exports: the widget behind a door that parses its props once
 * (parse-props.ts) and says, once per page, what is wrong with them and how to fix it. The warnings are
 * printed after the render, in the browser: a server render (Next.js's prerender) reads no clock here and
 * prints nothing. The script-tag bundle mounts OfferWidget.tsx directly: its options come from attributes
 * it has already read.
 */
import { useEffect } from 'react'
import { ApplicationGate } from './ApplicationGate.tsx'
import type { OfferWidgetProps } from './offer-widget-props.ts'
import { parseProps, searchDataWarnings } from './parse-props.ts'

/** Messages already printed on this page: a re-render or a second widget does not repeat them. */
const warned = new Set<string>()

export function OfferWidget(props: OfferWidgetProps) {
  // Parsed when the page renders it (the widget's own updates do not render this door again).
  const parsed = parseProps(props)
  const { request, warnings } = parsed
  useEffect(() => {
    const search = request.kind === 'search' ? request.search : undefined
    const lines = search == null ? warnings : [...warnings, ...searchDataWarnings(search, new Date())]
    for (const line of lines) {
      if (warned.has(line)) continue
      warned.add(line)
      console.warn(line)
    }
  })
  return <ApplicationGate {...parsed.props} />
}
