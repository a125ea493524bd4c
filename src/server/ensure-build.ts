/**
 * @module `prestart`: builds the browser assets (playground, widget, script-tag bundle) and the widget's
 * server renderer when they are missing or older than their sources, so `npm install && npm start` serves
 * the whole product on a fresh clone, and a restart after no change costs nothing.
 */
import { spawnSync } from 'node:child_process'
import { systemTimers } from '../http/timers.ts'
import { buildState } from './build-freshness.ts'

const SOURCES = [
  'src/widget',
  'src/embed',
  'src/ssr',
  'src/playground',
  'src/contract',
  'index.html',
  'package.json',
]
const OUTPUTS = [
  'dist/site/index.html',
  'dist/embed/manifest.json',
  'dist/widget/index.js',
  'dist/ssr/render-widget-html.js',
]

const state = buildState(SOURCES, OUTPUTS)

if (state !== 'current') {
  const started = systemTimers.now()
  process.stdout.write(
    state === 'stale'
      ? 'Browser assets are older than their sources: rebuilding (about 30 s)… '
      : 'Building the browser assets, once (about 30 s)… ',
  )
  // Browser assets and the widget's server renderer (the demo's ?ssr=1): `npm start` runs the server from
  // its sources, so dist/server is not needed here. Their output is shown only when a build fails.
  for (const script of ['build:browser', 'build:ssr']) {
    const result = spawnSync('npm', ['run', script, '--silent'], { encoding: 'utf8' })
    if (result.status !== 0) {
      process.stdout.write('failed\n')
      process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`)
      console.error(`npm run ${script} failed (exit ${result.status}); its output is above.`)
      process.exit(result.status ?? 1)
    }
  }
  console.log(`done in ${Math.round((systemTimers.now() - started) / 1000)} s`)
}
