/**
 * @module The shape of one documented prop, as extract-props.ts reads it from the widget's types and the
 * playground's props table and controls use it.
 */

export type PropControl =
  | { kind: 'select'; options: (string | number)[] }
  | { kind: 'boolean' }
  | { kind: 'text' }
  | { kind: 'number' }
  | { kind: 'callback' }
  | { kind: 'object' }

export interface PropDoc {
  name: string
  /** The type as written in the interface, e.g. `OfferSource`. */
  type: string
  /** The type with aliases expanded, when that says more, e.g. `"offer-search" | "second-look"`. */
  expanded: string | undefined
  optional: boolean
  /** The JSDoc text, as written. */
  doc: string
  control: PropControl
}
