/**
 * @module The `<OfferWidget>` the npm package exports: the widget behind a door that parses its props once
 * (parse-props.ts) and says, once per page, what is wrong with them and how to fix it. The script-tag
 * bundle mounts OfferWidget.tsx directly: its options come from attributes it has already read.
 */
import { type OfferWidgetProps, OfferWidget as Widget } from './OfferWidget.tsx'
import { parseProps } from './parse-props.ts'

/** Messages already printed on this page: a re-render or a second widget does not repeat them. */
const warned = new Set<string>()

export function OfferWidget(props: OfferWidgetProps) {
  // Parsed when the page renders it (the widget's own updates do not render this door again).
  const parsed = parseProps(props)
  for (const warning of parsed.warnings) {
    if (warned.has(warning)) continue
    warned.add(warning)
    console.warn(warning)
  }
  return <Widget {...parsed.props} />
}
