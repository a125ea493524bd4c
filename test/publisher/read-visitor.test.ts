/**
 * @module `readVisitor`: the visitor behind the request a publisher's server handles, under the BFF's
 * trusted-proxy rules, from a Node request, a web Request or a bare Headers (Next.js `headers()`).
 */
import { describe, expect, it } from 'vitest'
import { readVisitor, VisitorError } from '../../src/publisher/read-visitor.ts'

const UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0'

function nodeRequest(remoteAddress: string, headers: Record<string, string | string[]> = {}) {
  return { headers: { 'user-agent': UA, ...headers }, socket: { remoteAddress } }
}

describe('readVisitor', () => {
  it('a Node request with no trusted proxy: the socket address, whatever X-Forwarded-For says', () => {
    const visitor = readVisitor(nodeRequest('81.2.69.160', { 'x-forwarded-for': '6.6.6.6' }))
    expect(visitor).toEqual({ ipAddress: '81.2.69.160', userAgent: UA })
  })

  it('a Node request behind a trusted proxy: the rightmost untrusted entry, never the leftmost', () => {
    const visitor = readVisitor(
      nodeRequest('::ffff:10.0.0.5', { 'x-forwarded-for': '6.6.6.6, 81.2.69.160' }),
      {
        trustProxy: '10.0.0.0/8',
      },
    )
    expect(visitor.ipAddress).toBe('81.2.69.160')
  })

  it('a web Request (no socket) behind one edge proxy: its X-Forwarded-For entry', () => {
    const request = new Request('https://publisher.example/quote', {
      headers: { 'user-agent': UA, 'x-forwarded-for': '6.6.6.6, 81.2.69.160' },
    })
    expect(readVisitor(request, { trustProxy: 1 })).toEqual({ ipAddress: '81.2.69.160', userAgent: UA })
  })

  it('Headers behind an edge and a trusted internal hop (CIDRs)', () => {
    const headers = new Headers({ 'user-agent': UA, 'x-forwarded-for': '6.6.6.6, 81.2.69.160, 10.0.0.9' })
    expect(readVisitor(headers, { trustProxy: '10.0.0.0/8' }).ipAddress).toBe('81.2.69.160')
  })

  it('an explicit remoteAddress is the first hop of a web Request', () => {
    const headers = new Headers({ 'user-agent': UA, 'x-forwarded-for': '81.2.69.160' })
    expect(
      readVisitor(headers, { remoteAddress: '10.0.0.2', trustProxy: 'uniquelocal,10.0.0.0/8' }).ipAddress,
    ).toBe('81.2.69.160')
    expect(readVisitor(headers, { remoteAddress: '2a00:1450::1' }).ipAddress).toBe('2a00:1450::1')
  })

  it.each([
    [
      'no socket and no trustProxy',
      new Headers({ 'user-agent': UA, 'x-forwarded-for': '81.2.69.160' }),
      {},
      'trustProxy',
    ],
    [
      'no X-Forwarded-For behind an edge',
      new Headers({ 'user-agent': UA }),
      { trustProxy: 1 },
      'X-Forwarded-For',
    ],
    [
      'a forged non-address',
      new Headers({ 'user-agent': UA, 'x-forwarded-for': 'evil' }),
      { trustProxy: 1 },
      'X-Forwarded-For',
    ],
    ['no User-Agent', new Headers({ 'x-forwarded-for': '81.2.69.160' }), { trustProxy: 1 }, 'User-Agent'],
  ])('throws a VisitorError saying what to fix: %s', (_name, headers, options, hint) => {
    expect(() => readVisitor(headers, options)).toThrow(VisitorError)
    expect(() => readVisitor(headers, options)).toThrow(hint)
  })
})
