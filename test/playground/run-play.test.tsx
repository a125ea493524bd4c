/**
 * @module The play runner (src/playground/frame/run-play.ts) on a tiny React form in a shadow root, as the
 * preview frame runs it on the widget: each kind of step through the events React listens to, steps that
 * wait for what they name, and a verdict that names the failing step and why.
 */
import { useEffect, useState } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import type { PlayStep } from '../../src/playground/frame/play-step.ts'
import { type PlayOptions, runPlay } from '../../src/playground/frame/run-play.ts'

/** A form like the application: a late field (its chunk loading), a select, radios, a box, a masked field. */
function TinyForm() {
  const [ready, setReady] = useState(false)
  const [name, setName] = useState('')
  const [color, setColor] = useState('')
  const [size, setSize] = useState('')
  const [agreed, setAgreed] = useState(false)
  const [secret, setSecret] = useState('')
  const [said, setSaid] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), 120)
    return () => clearTimeout(timer)
  }, [])
  if (!ready) return <p>Loading…</p>
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        setSaid(
          agreed
            ? `Thanks, ${name} (${color}, ${size}, ${secret.length} secret digits)`
            : 'Please agree first',
        )
      }}
    >
      <label htmlFor="name">Your name</label>
      <input id="name" value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="last">Your last name</label>
      <input id="last" />
      <label htmlFor="color">Color</label>
      <select id="color" value={color} onChange={(e) => setColor(e.target.value)}>
        <option value="">Choose…</option>
        <option value="blue">Blue</option>
        <option value="red">Red</option>
      </select>
      <fieldset>
        <legend>Size</legend>
        {['small', 'large'].map((value) => (
          <label key={value}>
            <input type="radio" name="size" checked={size === value} onChange={() => setSize(value)} />
            {value === 'small' ? 'Small' : 'Large'}
          </label>
        ))}
      </fieldset>
      <input id="agree" type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
      <label htmlFor="agree">
        I agree that this tiny form may keep what I type for the length of the test.
      </label>
      <label htmlFor="secret">Secret</label>
      <input id="secret" type="password" value={secret} onChange={(e) => setSecret(e.target.value)} />
      <button type="submit">Send</button>
      <button type="button" disabled>
        Later
      </button>
      <p role="status">{said}</p>
    </form>
  )
}

let root: Root | undefined
afterEach(() => {
  root?.unmount()
  root = undefined
  document.body.innerHTML = ''
})

function renderInShadow(): ShadowRoot {
  const host = document.createElement('div')
  document.body.append(host)
  const shadow = host.attachShadow({ mode: 'open' })
  const container = document.createElement('div')
  shadow.append(container)
  root = createRoot(container)
  root.render(<TinyForm />)
  return shadow
}

function play(steps: PlayStep[], more: Partial<PlayOptions> = {}) {
  const lines: string[] = []
  const result = runPlay(renderInShadow(), steps, {
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    log: (text) => lines.push(text),
    stepTimeoutMs: 1_000,
    ...more,
  })
  return { result, lines }
}

describe('runPlay', () => {
  it('fills, selects, checks and clicks as a visitor, each step waiting for what it names', async () => {
    const { result, lines } = play([
      { fill: 'Your name', value: 'Ada' },
      { select: 'Color', value: 'Blue' },
      { check: 'Large' },
      { check: 'I agree that this tiny form' },
      { fill: 'Secret', value: '1234' },
      { click: 'Send' },
      { waitFor: 'Thanks, Ada (blue, large, 4 secret digits)' },
    ])
    expect(await result).toEqual({ status: 'passed', steps: 7 })
    expect(lines).toEqual([
      'play: 1/7 fill "Your name" with "Ada"',
      'play: 2/7 select "Blue" in "Color"',
      'play: 3/7 check "Large"',
      'play: 4/7 check "I agree that this tiny form"',
      // A password field's value stays out of the log.
      'play: 5/7 fill "Secret" with ••••',
      'play: 6/7 click "Send"',
      'play: 7/7 wait for "Thanks, Ada (blue, large, 4 secret digits)"',
      'play: passed, 7 steps',
    ])
  })

  it('fails at the step whose target never appears, naming it and the time waited', async () => {
    const { result, lines } = play([{ click: 'Send' }, { click: 'Submit my application' }], {
      stepTimeoutMs: 300,
    })
    const verdict = await result
    expect(verdict).toMatchObject({ status: 'failed', step: 2, steps: 2 })
    const message = (verdict as { message: string }).message
    expect(message).toBe(
      'step 2 of 2 (click "Submit my application") failed: no button or link "Submit my application" after 0.3 s',
    )
    expect(lines.at(-1)).toBe(`play: ${message}`)
  })

  it('says what is wrong with a step that finds its target but cannot act on it', async () => {
    const cases: [PlayStep, string][] = [
      [{ select: 'Your name', value: 'Ada' }, 'it is a text input, not a select'],
      [{ fill: 'Color', value: 'Ada' }, 'it is a select, not a text field'],
      [{ select: 'Color', value: 'Green' }, 'it has no option "Green" (it has "", "blue", "red")'],
      [{ check: 'Your name' }, 'it is a text input, not a checkbox or radio'],
      [{ click: 'Later' }, 'it is disabled'],
      // "name" is part of two labels and the whole of none: said at once, waiting would not mend it.
      [{ fill: 'name', value: 'Ada' }, '2 elements match control labelled "name": give more of its text'],
    ]
    for (const [step, reason] of cases) {
      const { result } = play([step])
      const verdict = await result
      expect(verdict.status, JSON.stringify(step)).toBe('failed')
      expect((verdict as { message: string }).message.split(' failed: ')[1], JSON.stringify(step)).toBe(
        reason,
      )
      root?.unmount()
    }
  })

  it('fails a waitFor that is never shown, after its own timeout', async () => {
    const { result } = play([{ waitFor: 'Thanks', timeoutMs: 200 }])
    expect(await result).toMatchObject({
      status: 'failed',
      message: 'step 1 of 1 (wait for "Thanks") failed: it is not shown after 0.2 s',
    })
  })

  it('stops without a verdict when a newer run replaced it', async () => {
    let current = true
    const { result, lines } = play([{ click: 'Send' }, { waitFor: 'never' }], {
      current: () => current,
      wait: (ms) =>
        new Promise((resolve) => {
          current = false
          setTimeout(resolve, ms)
        }),
    })
    expect(await result).toEqual({ status: 'stopped' })
    expect(lines.filter((l) => l.includes('passed') || l.includes('failed'))).toEqual([])
  })

  it("expects what a visitor sees: a text, its absence, how many times, a field's value", async () => {
    const { result, lines } = play([
      { expect: 'Your name' },
      { expect: 'Thanks', absent: true },
      { expect: 'Your', count: 2 },
      { fill: 'Your name', value: 'Ada' },
      { expect: 'Your name', value: 'Ada' },
      { select: 'Color', value: 'Blue' },
      { expect: 'Color', value: 'Blue' },
      { expect: 'Color', value: 'blue' },
    ])
    expect(await result).toEqual({ status: 'passed', steps: 8 })
    expect(lines.slice(0, 3)).toEqual([
      'play: 1/8 expect "Your name"',
      'play: 2/8 expect no "Thanks"',
      'play: 3/8 expect "Your" shown 2 times',
    ])
    expect(lines).toContain('play: 5/8 expect "Your name" to hold "Ada"')
  })

  it('fails an expectation that never holds, saying what was seen instead', async () => {
    const cases: [PlayStep, string][] = [
      [{ expect: 'Thanks' }, 'it is not shown after 0.2 s'],
      [{ expect: 'Your name', absent: true }, 'it is shown after 0.2 s'],
      [{ expect: 'Your', count: 3 }, 'it is shown 2 times after 0.2 s'],
      [{ expect: 'Your name', value: 'Ada' }, 'it holds "" after 0.2 s'],
      [{ expect: 'Color', value: 'Green' }, 'it holds "Choose…" after 0.2 s'],
      // A box has no text value: said at once.
      [{ expect: 'Large', value: 'x' }, 'it is a input with no text value'],
    ]
    for (const [step, reason] of cases) {
      // The form is there first, so each miss is the expectation's own.
      const { result } = play([{ waitFor: 'Send' }, step], { stepTimeoutMs: 200 })
      const verdict = await result
      expect(verdict, JSON.stringify(step)).toMatchObject({ status: 'failed', step: 2 })
      expect((verdict as { message: string }).message.split(' failed: ')[1], JSON.stringify(step)).toBe(
        reason,
      )
      root?.unmount()
    }
  })

  it('lets widget time pass on the clock it is given, not by waiting', async () => {
    const advanced: number[] = []
    const { result, lines } = play([{ waitSeconds: 16 }, { expect: 'Send' }], {
      letTimePass: async (ms) => {
        advanced.push(ms)
      },
    })
    expect(await result).toEqual({ status: 'passed', steps: 2 })
    expect(advanced).toEqual([16_000])
    expect(lines[0]).toBe('play: 1/2 wait 16 s of widget time')
  })
})
