import { describe, expect, it } from 'vitest'
import { type PlaygroundState, readState, writeState } from '../../src/playground/url-state.ts'

describe('playground url state', () => {
  it('round-trips a story with its controls through the link', () => {
    const state: PlaygroundState = {
      story: 'no-offers',
      mode: 'bff',
      overrides: {
        theme: 'dark',
        'search.zipCode': '00002',
        'themeVariables.--ow-radius': '0',
        preview: null,
      },
      viewport: 360,
      background: 'busy',
      zoom: 150,
      outline: true,
      measure: true,
      panel: 'code',
    }
    expect(readState(writeState(state))).toEqual(state)
    expect(writeState(state)).toContain('zoom=150&outline=1&measure=1')
    expect(readState(writeState({ ...state, zoom: 'fit' })).zoom).toBe('fit')
  })

  it('keeps defaults out of the link', () => {
    expect(
      writeState({
        story: '',
        mode: 'msw',
        overrides: {},
        viewport: undefined,
        background: undefined,
        zoom: undefined,
        outline: false,
        measure: false,
        panel: 'controls',
      }),
    ).toBe('')
  })

  it('falls back piece by piece on a link that does not parse', () => {
    const state = readState(
      '?story=x&mode=nope&vp=1000&bg=plaid&zoom=400&outline=yes&panel=zzz&args=%7Bnot json',
    )
    expect(state).toEqual({
      story: 'x',
      mode: 'msw',
      overrides: {},
      viewport: undefined,
      background: undefined,
      zoom: undefined,
      outline: false,
      measure: false,
      panel: 'controls',
    })
    for (const zoom of ['10', '201', '100', '1.5', 'fitt', ''])
      expect(readState(`?zoom=${zoom}`).zoom).toBeUndefined()
    // A path that is not an arg path is refused with the rest of the args.
    expect(readState(`?args=${encodeURIComponent('{"a.b.c":1}')}`).overrides).toEqual({})
  })
})
