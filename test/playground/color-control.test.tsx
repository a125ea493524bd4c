/**
 * @module The colour variables' control: any CSS colour in the text field, a picker beside it that sets
 * `#rrggbb` and shows the value's colour (or the preset's default while unset).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ArgControl } from '../../src/playground/ArgControl.tsx'
import { colorToHex, presetDefaults } from '../../src/playground/color-value.ts'
import { THEME_VARIABLES } from '../../src/widget/theme.ts'

afterEach(cleanup)

describe('colorToHex', () => {
  it('reads hex and rgb() forms as #rrggbb, alpha dropped; other forms have none', () => {
    expect(colorToHex('#ABC')).toBe('#aabbcc')
    expect(colorToHex('#abcd')).toBe('#aabbcc')
    expect(colorToHex(' #1f4fd1 ')).toBe('#1f4fd1')
    expect(colorToHex('#1f4fd180')).toBe('#1f4fd1')
    expect(colorToHex('rgb(10, 120, 80)')).toBe('#0a7850')
    expect(colorToHex('rgb(10 120 80 / 50%)')).toBe('#0a7850')
    expect(colorToHex('rgba(255,0,0,0.5)')).toBe('#ff0000')
    expect(colorToHex('rgb(100% 0% 50%)')).toBe('#ff0080')
    for (const other of ['rebeccapurple', 'hsl(0 0% 0%)', '#12', '', undefined])
      expect(colorToHex(other)).toBeUndefined()
  })

  it("finds every colour variable's default in the widget's styles, per preset", () => {
    // Vitest hands `?inline` CSS over empty: the file as Vite inlines it.
    const widgetCss = readFileSync(join(import.meta.dirname, '../../src/widget/styles.css'), 'utf8')
    const light = presetDefaults(widgetCss, 'light')
    const dark = presetDefaults(widgetCss, 'dark')
    for (const name of THEME_VARIABLES.filter((n) => n.startsWith('--ow-color-'))) {
      expect(colorToHex(light[name]), name).toMatch(/^#[0-9a-f]{6}$/)
      expect(colorToHex(dark[name]), name).toMatch(/^#[0-9a-f]{6}$/)
    }
    expect(light['--ow-color-bg']).not.toBe(dark['--ow-color-bg'])
  })
})

describe('a colour arg control', () => {
  function renderControl(value: string | undefined) {
    const onChange = vi.fn()
    render(
      <ArgControl
        path="themeVariables.--ow-color-accent"
        label="--ow-color-accent"
        doc=""
        control={{ kind: 'text' }}
        value={value}
        storyValue={undefined}
        unsettable
        color={{ fallback: '#1f4fd1' }}
        onChange={onChange}
      />,
    )
    const text = screen.getByLabelText(/^--ow-color-accent/, { selector: 'input[type="text"]' })
    const picker = screen.getByLabelText('--ow-color-accent colour picker') as HTMLInputElement
    return { onChange, text, picker }
  }

  it('shows the preset default while unset, the value once set, and sets #rrggbb from the picker', () => {
    const unset = renderControl(undefined)
    expect(unset.picker.type).toBe('color')
    expect(unset.picker.value).toBe('#1f4fd1')
    fireEvent.change(unset.picker, { target: { value: '#7a1f5c' } })
    expect(unset.onChange).toHaveBeenCalledWith('#7a1f5c')
    cleanup()
    expect(renderControl('rgb(10, 120, 80)').picker.value).toBe('#0a7850')
  })

  it('takes any CSS colour as text', () => {
    const { onChange, text } = renderControl(undefined)
    fireEvent.change(text, { target: { value: 'rebeccapurple' } })
    fireEvent.keyDown(text, { key: 'Enter' })
    expect(onChange).toHaveBeenCalledWith('rebeccapurple')
  })
})
