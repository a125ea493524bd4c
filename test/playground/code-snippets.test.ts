import { describe, expect, it } from 'vitest'
import { reactCode, scriptTagCode } from '../../src/playground/code-snippets.ts'

const args = {
  endpoint: 'https://bff.example',
  theme: 'dark' as const,
  preview: true,
  headingLevel: 3 as const,
  search: { zipCode: '94107', clientTags: { subId: ['top'] } },
  labels: { heading: "Tom's </script> quotes" },
}

describe('code snippets', () => {
  it('writes the React element with every arg', () => {
    const code = reactCode(args)
    expect(code).toContain("import { OfferWidget } from 'offer-widget'")
    expect(code).toContain('endpoint="https://bff.example"')
    expect(code).toContain('theme="dark"')
    expect(code).toMatch(/^\s+preview$/m)
    expect(code).toContain('headingLevel={3}')
    expect(code).toContain("zipCode: '94107'")
    expect(code).toContain("subId: ['top']")
    expect(code).toContain("heading: 'Tom\\'s </script> quotes'")
  })

  it('writes a script-tag page whose mount() options are exactly the args', () => {
    const code = scriptTagCode(args, 'LOADER();')
    expect(code).toContain('<div id="offer-widget"></div>')
    expect(code).toContain('<script>LOADER();</script>')
    const json = /OfferWidget\.mount\('#offer-widget', ([\s\S]*)\)\n<\/script>/.exec(code)?.[1]
    expect(JSON.parse(json ?? '')).toEqual(args)
    // No value can close the script element.
    expect(code.match(/<\/script>/g)).toHaveLength(2)
  })

  it('leaves out unset args', () => {
    expect(reactCode({ theme: undefined })).toContain('<OfferWidget />')
  })
})
