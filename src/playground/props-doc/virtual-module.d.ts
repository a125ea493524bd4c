/** @module The type of the module props-doc-plugin.ts generates from src/widget's exported types. */
declare module 'virtual:offer-widget-props' {
  import type { PropDoc } from './prop-doc.ts'

  const docs: { OfferWidgetProps: PropDoc[]; SearchData: PropDoc[]; AttachedSearch: PropDoc[] }
  export default docs
}
