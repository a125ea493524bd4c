/**
 * @module In-page probe for what lets a visitor trust a card (issue 41): every disclaimer on screen is tied
 * to a card on screen (the card and its link are described by it), no line carrying a price or rate figure
 * is clamped or cut at this width, and no text of the widget, its live region included, calls the paid
 * order "best". `[]` when all hold. {@link cardTrustInPage} runs in the page (Playwright's or a WebDriver's
 * evaluate), so Chromium, Firefox and WebKit are judged by the same lines.
 */
import type { Page } from 'playwright-core'
import { FIGURE_SOURCE } from '../../../src/widget/copy-figures.ts'

export { FIGURE_SOURCE }

/** Runs in the page: the widget at `selector` (its shadow root, or itself when it has none). */
export function cardTrustInPage(selector: string, figureSource: string): string[] {
  const host = document.querySelector(selector)
  const root = host?.shadowRoot ?? host
  const problems: string[] = []
  if (!root) return ['no widget']
  const figure = new RegExp(figureSource, 'i')
  const cards = [...root.querySelectorAll<HTMLElement>('.ow-card')]
  const describedBy = (element: Element | null) =>
    (element?.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean)
  for (const entry of root.querySelectorAll<HTMLElement>('.ow-disclaimer')) {
    const name = `disclaimer "${entry.textContent?.slice(0, 40)}"`
    const tied = cards.filter((card) => describedBy(card).includes(entry.id))
    if (entry.id === '' || tied.length === 0) problems.push(`${name}: tied to no card on screen`)
    for (const card of tied)
      if (!describedBy(card.querySelector('.ow-cta')).includes(entry.id))
        problems.push(`${name}: not announced with its card's link`)
  }
  for (const card of cards) {
    for (const element of card.querySelectorAll<HTMLElement>('*')) {
      const own = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
      if (!figure.test(own) || element.closest('.ow-visually-hidden')) continue
      const style = getComputedStyle(element)
      const name = `"${own.trim().slice(0, 40)}"`
      const clamp = style.getPropertyValue('-webkit-line-clamp')
      if (clamp && clamp !== 'none') problems.push(`${name}: a figure under line-clamp ${clamp}`)
      if (element.scrollHeight > element.clientHeight + 1) problems.push(`${name}: a figure cut off`)
      if (element.getClientRects().length === 0) problems.push(`${name}: a figure not drawn`)
    }
  }
  const words = root.querySelector('.ow-root')?.textContent ?? ''
  const best = /.{0,40}\bbest\b.{0,40}/i.exec(words)
  if (best) problems.push(`says "best": ${best[0]}`)
  return problems
}

export function cardTrustProblems(page: Page, host = '[data-offer-widget]'): Promise<string[]> {
  return page.evaluate<string[]>(inPage(host))
}

/** The probe as an expression: the function's own source, called with its arguments. */
function inPage(host: string): string {
  return `(${cardTrustInPage.toString()})(${JSON.stringify(host)}, ${JSON.stringify(FIGURE_SOURCE)})`
}
