import { describe, expect, it } from 'vitest'
import {
  applyOverrides,
  argAt,
  searchArgs,
  VISUAL_ARGS,
  visualArgs,
} from '../../src/playground/widget-args.ts'

describe('widget args', () => {
  const story = {
    form: 'always' as const,
    search: { zipCode: '94107', isHomeOwner: true },
    labels: { heading: 'H' },
  }

  it('applies flat overrides over the story, field by field, without touching the story', () => {
    const args = applyOverrides(story, { theme: 'dark', 'search.zipCode': '00002', 'labels.submit': 'Go' })
    expect(args).toEqual({
      form: 'always',
      theme: 'dark',
      search: { zipCode: '00002', isHomeOwner: true },
      labels: { heading: 'H', submit: 'Go' },
    })
    expect(story.search.zipCode).toBe('94107')
  })

  it('unsets with null, and drops an object left empty', () => {
    expect(applyOverrides(story, { form: null, 'labels.heading': null })).toEqual({
      search: { zipCode: '94107', isHomeOwner: true },
    })
    expect(applyOverrides(story, { 'themeVariables.--ow-radius': '2px' }).themeVariables).toEqual({
      '--ow-radius': '2px',
    })
  })

  it('reads a value at a flat path', () => {
    expect(argAt(story, 'search.isHomeOwner')).toBe(true)
    expect(argAt(story, 'form')).toBe('always')
    expect(argAt(story, 'attach.uuid')).toBeUndefined()
  })

  it('splits the args that start a new search from those update() applies', () => {
    const args = { ...story, theme: 'dark' as const, preview: true, headingLevel: 3 as const }
    expect(searchArgs(args)).toEqual({ form: 'always', search: story.search, preview: true })
    const visual = visualArgs(args)
    expect(visual).toMatchObject({ labels: { heading: 'H' }, theme: 'dark', headingLevel: 3 })
    // Unset visual args are passed as undefined, so update() clears what a control removed.
    expect(Object.keys(visual)).toEqual(expect.arrayContaining([...VISUAL_ARGS]))
    expect(visual.className).toBeUndefined()
  })
})
