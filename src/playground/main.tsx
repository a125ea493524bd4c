/**
 * @module Playground entry (`index.html`): the story browser for the widget, served by `npm start` from
 * `dist/site`. The widget itself is mounted through src/embed, as on a publisher's page.
 */
import { createRoot } from 'react-dom/client'
import { createEventLog } from './event-log.ts'
import { Playground } from './Playground.tsx'
import './playground.css'

const root = document.getElementById('root')
if (root) createRoot(root).render(<Playground log={createEventLog()} />)
