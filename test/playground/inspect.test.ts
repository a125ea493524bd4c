import { describe, expect, it } from 'vitest'
import { measureText } from '../../src/playground/frame/inspect.ts'

const style = (values: Record<string, string>) =>
  ({
    marginTop: '0px',
    marginRight: '0px',
    marginBottom: '0px',
    marginLeft: '0px',
    paddingTop: '0px',
    paddingRight: '0px',
    paddingBottom: '0px',
    paddingLeft: '0px',
    ...values,
  }) as unknown as CSSStyleDeclaration

describe('the measure label', () => {
  it('gives the box size, then margin and padding as CSS shortens them, left out when zero', () => {
    expect(measureText(320, 48.333, style({}))).toBe('320 × 48.33')
    expect(
      measureText(
        100,
        20,
        style({
          marginBottom: '12px',
          paddingTop: '16px',
          paddingRight: '16px',
          paddingBottom: '16px',
          paddingLeft: '16px',
        }),
      ),
    ).toBe('100 × 20 · margin 0 0 12 0 · padding 16')
    expect(
      measureText(
        1,
        2,
        style({ marginTop: '4px', marginBottom: '4px', marginLeft: '8px', marginRight: '8px' }),
      ),
    ).toBe('1 × 2 · margin 4 8')
  })
})
