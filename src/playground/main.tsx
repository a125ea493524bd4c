/**
 * @module Playground entry (`index.html`): the story browser for the widget, served by `npm start` from
 * `dist/site`. The widget itself runs in the preview frame (frame/), mounted through src/embed as on a
 * publisher's page; the props table comes from the widget's exported types at build time.
 */

import docs from 'virtual:offer-widget-props'
import { createRoot } from 'react-dom/client'
import { Playground } from './Playground.tsx'
import './playground.css'
import './sidebar.css'
import './preview-tools.css'

const root = document.getElementById('root')
if (root) createRoot(root).render(<Playground docs={docs} />)
