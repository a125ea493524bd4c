/** @module Log redaction: secrets and personal data never reach a log line, at any depth we log. */
import { describe, expect, it } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'

describe('createLogger', () => {
  it('redacts authorization headers, tokens and PII paths', () => {
    const lines: string[] = []
    const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } })
    logger.info(
      {
        headers: { authorization: 'Bearer secret-1', 'x-offer-access-token': 'v1.secret-2' },
        accessToken: 'secret-3',
        lead: {
          personalInformation: {
            ssn: 'secret-4',
            dateOfBirth: 'secret-5',
            email: 'secret-6',
            address: 'secret-7',
          },
          contact: { phone: 'secret-8' },
        },
      },
      'request',
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toMatch(/secret-/)
    expect(JSON.parse(lines[0] as string).headers.authorization).toBe('[redacted]')
  })
})
