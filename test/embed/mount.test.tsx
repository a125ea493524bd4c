/**
 * @module `mount()` in jsdom against the msw scenarios: Shadow DOM, styles in the shadow root, callbacks
 * and their DOM events, update, the double-mount warning, several widgets, and unmount freeing everything.
 */
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mount as mountNow } from '../../src/embed/mount.tsx'
import { EMBED_EVENTS } from '../../src/embed/options.ts'
import { assetHandlers, scenarios } from '../../src/playground/scenarios/handlers.ts'
import { advance, ENDPOINT, server, setupWidgetTests } from '../widget/support/widget-tests.ts'

setupWidgetTests()

let host: HTMLDivElement
beforeEach(() => {
  server.use(...scenarios.happyPath.create().handlers, ...assetHandlers)
  host = document.createElement('div')
  host.id = 'w1'
  document.body.append(host)
})
afterEach(() => {
  document.body.innerHTML = ''
})

/** Mounts inside act(), as React's test environment expects of a root render. */
function mount(...args: Parameters<typeof mountNow>) {
  let handle: ReturnType<typeof mountNow> | undefined
  act(() => {
    handle = mountNow(...args)
  })
  return handle as ReturnType<typeof mountNow>
}

const sheets = (shadow: ShadowRoot) => shadow.adoptedStyleSheets?.length ?? 0
const shadowRootOf = (element: Element) => element.shadowRoot as ShadowRoot
const widgetRoot = (element: Element) => shadowRootOf(element).querySelector<HTMLElement>('.ow-root')

describe('mount', () => {
  it('renders the widget in an open shadow root with its styles there, not in the page', async () => {
    mount(host, { endpoint: ENDPOINT, search: { zipCode: '94107' } })
    await advance()
    const shadow = shadowRootOf(host)
    expect(shadow.mode).toBe('open')
    expect(widgetRoot(host)).not.toBeNull()
    const styled = sheets(shadow) > 0 || shadow.querySelector('style') !== null
    expect(styled).toBe(true)
    expect(document.head.querySelector('style')).toBeNull()
    expect(host.children).toHaveLength(0)
  })

  it('shows offers, calls back and emits the same events on the host element', async () => {
    const onSearchCreated = vi.fn()
    const onComplete = vi.fn()
    const events: string[] = []
    for (const type of Object.values(EMBED_EVENTS))
      document.addEventListener(type, (e) => events.push(e.type))
    mount(host, { endpoint: ENDPOINT, search: { zipCode: '94107' }, onSearchCreated, onComplete })
    await advance(4000)
    expect(shadowRootOf(host).querySelectorAll('.ow-card')).toHaveLength(3) // the initial three of four offers
    expect(onSearchCreated).toHaveBeenCalledTimes(1)
    expect(onComplete).toHaveBeenCalledWith(expect.objectContaining({ offerCount: 4, incomplete: false }))
    expect(events).toEqual(
      expect.arrayContaining([
        EMBED_EVENTS.onSearchCreated,
        EMBED_EVENTS.onOffersShown,
        EMBED_EVENTS.onComplete,
      ]),
    )
  })

  it('update() merges options and re-renders in place', async () => {
    const handle = mount(host, { endpoint: ENDPOINT, search: { zipCode: '94107' } })
    await advance()
    // A root render, like mount(): inside act() so React applies it before the test looks.
    act(() => {
      handle.update({ theme: 'dark' })
    })
    await advance()
    expect(widgetRoot(host)?.dataset.owTheme).toBe('dark')
  })

  it('a second mount on the same element warns, names it, and does nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const first = mount(host, { endpoint: ENDPOINT, search: { zipCode: '94107' } })
    const second = mount(host, { endpoint: ENDPOINT, theme: 'dark' })
    await advance()
    expect(second).toBe(first)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toContain('<div#w1> already has a widget')
    expect(shadowRootOf(host).querySelectorAll('.ow-root')).toHaveLength(1)
    expect(widgetRoot(host)?.dataset.owTheme).toBe('light')
    warn.mockRestore()
  })

  it('mounts several independent widgets on one page', async () => {
    const other = document.createElement('div')
    document.body.append(other)
    mount(host, { endpoint: ENDPOINT, search: { zipCode: '94107' } })
    mount(other, { endpoint: ENDPOINT, theme: 'dark' })
    await advance(4000)
    expect(shadowRootOf(host).querySelectorAll('.ow-card')).toHaveLength(3) // the initial three of four offers
    expect(widgetRoot(other)?.dataset.owStatus).toBe('form')
  })

  it('unmount() frees everything: no node, no timer, no listener left; mounting again works', async () => {
    const add = vi.spyOn(EventTarget.prototype, 'addEventListener')
    const remove = vi.spyOn(EventTarget.prototype, 'removeEventListener')
    const handle = mount(host, { endpoint: ENDPOINT, search: { zipCode: '94107' } })
    await advance(2500)
    expect(shadowRootOf(host).querySelectorAll('.ow-card').length).toBeGreaterThan(0)
    act(() => handle.unmount())
    await advance()
    const shadow = shadowRootOf(host)
    expect(shadow.childNodes).toHaveLength(0)
    expect(sheets(shadow)).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
    const global = (target: unknown) => target === window || target === document
    const added = add.mock.contexts.filter(global).length
    const removed = remove.mock.contexts.filter(global).length
    expect(added - removed).toBe(0)
    handle.unmount()
    add.mockRestore()
    remove.mockRestore()

    const again = mount(host, { endpoint: ENDPOINT, search: { zipCode: '94107' } })
    await advance()
    expect(widgetRoot(host)).not.toBeNull()
    act(() => again.unmount())
  })

  it('refuses an element it cannot host, with the fix', () => {
    const img = document.createElement('img')
    expect(() => mountNow(img)).toThrow('mount on a <div> or <section>')
    expect(() => mountNow('#missing')).toThrow('mount("#missing") found no element')
  })
})
