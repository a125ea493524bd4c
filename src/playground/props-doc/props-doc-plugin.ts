/**
 * @module Vite plugin serving `virtual:offer-widget-props`: the widget's props (and those of `search` and
 * `attach`) as read from its exported
 * types (extract-props.ts), regenerated whenever a file of src/widget changes. Used by the playground only.
 */
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { extractProps } from './extract-props.ts'

const PROPS_MODULE_ID = 'virtual:offer-widget-props'
const RESOLVED_ID = `\0${PROPS_MODULE_ID}`
const WIDGET_ENTRY = fileURLToPath(new URL('../../widget/index.ts', import.meta.url))
const WIDGET_DIR = fileURLToPath(new URL('../../widget/', import.meta.url))

export function propsDocPlugin(): Plugin {
  return {
    name: 'offer-widget-props-doc',
    resolveId: (id) => (id === PROPS_MODULE_ID ? RESOLVED_ID : undefined),
    load(id) {
      if (id !== RESOLVED_ID) return undefined
      const docs = extractProps(WIDGET_ENTRY, ['OfferWidgetProps', 'SearchData', 'AttachedSearch'])
      return `export default ${JSON.stringify(docs)}`
    },
    handleHotUpdate({ file, server }) {
      if (!file.startsWith(WIDGET_DIR)) return
      const module = server.moduleGraph.getModuleById(RESOLVED_ID)
      if (module) server.moduleGraph.invalidateModule(module)
    },
  }
}
