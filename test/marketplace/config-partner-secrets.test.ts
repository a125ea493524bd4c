import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/server/config.ts'

describe('config: partner credentials', () => {
  it('hands every non-empty PARTNER_* variable to the registry, and nothing else', () => {
    const config = loadConfig({
      PARTNER_ACME_TOKEN: 'abc',
      PARTNER_EMPTY: '',
      PARTNERS_FILE: 'p.yaml',
      OTHER: 'x',
    })
    expect(config.partnerSecrets).toEqual({ PARTNER_ACME_TOKEN: 'abc' })
    expect(config.partnersFile).toBe('p.yaml')
  })
})
