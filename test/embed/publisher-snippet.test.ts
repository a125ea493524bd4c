/**
 * @module The reservation a publisher pastes (`npm run snippet`) and the one the demo page keeps are the
 * same heights at the same widths: the demo is the paste, so its CLS checks say what a publisher gets. A
 * demo reserving less than the snippet let the widget outgrow its place at 1280 px.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { reservationCss } from '../../src/embed/publisher-snippet.ts'

/** [min viewport width, reserved px] pairs, in the order the rules apply. */
function reservations(css: string, selector: string): [number, number][] {
  const out: [number, number][] = []
  const rule = new RegExp(
    `(?:@media \\(min-width: ?(\\d+)px\\) ?\\{\\s*)?${selector.replace(/[[\].-]/g, '\\$&')} ?\\{[^}]*?min-height: ?(\\d+)px`,
    'g',
  )
  for (const match of css.matchAll(rule)) out.push([Number(match[1] ?? 0), Number(match[2])])
  return out
}

describe('the reserved heights', () => {
  const snippet = reservations(reservationCss(), '.offer-widget-slot')

  it('the snippet reserves a height for every width, phones first and tallest', () => {
    expect(snippet.length).toBeGreaterThan(1)
    expect(snippet[0]?.[0]).toBe(0)
    for (let i = 1; i < snippet.length; i++) {
      expect(snippet[i]?.[0]).toBeGreaterThan(snippet[i - 1]?.[0] ?? 0)
      expect(snippet[i]?.[1]).toBeLessThan(snippet[i - 1]?.[1] ?? 0)
    }
  })

  it('the demo page keeps the heights the snippet prints', () => {
    const demo = reservations(readFileSync('public/demo.css', 'utf8'), '[data-offer-widget]')
    expect(demo).toEqual(snippet)
  })
})
