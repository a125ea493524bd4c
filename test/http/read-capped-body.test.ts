/**
 * @module The capped body reader: whole bodies up to the cap, a refusal naming the cap past it (declared or
 * counted), and the transfer stopped there.
 */
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { BodyTooLargeError, createCappedBody, readCappedBody } from '../../src/http/read-capped-body.ts'

/** A stream of `chunks`, counting how many of them were pulled. */
function source(chunks: string[]) {
  let pulled = 0
  const stream = new Readable({
    read() {
      const next = chunks[pulled]
      pulled++
      this.push(next === undefined ? null : Buffer.from(next))
    },
  })
  return { stream, pulled: () => pulled }
}

describe('readCappedBody', () => {
  it('reads a body of up to the cap whole, as UTF-8 across chunk boundaries', async () => {
    const euro = Buffer.from('€')
    // A multi-byte character split between two chunks.
    const bytes = new Readable({ read() {} })
    bytes.push(Buffer.from('ab'))
    bytes.push(euro.subarray(0, 1))
    bytes.push(euro.subarray(1))
    bytes.push(null)
    await expect(readCappedBody(bytes, 5)).resolves.toBe('ab€')
    await expect(readCappedBody(source(['12345']).stream, 5)).resolves.toBe('12345')
    await expect(readCappedBody(source([]).stream, 5)).resolves.toBe('')
  })

  it('past the cap: refuses with the cap in the message, and stops reading the stream', async () => {
    const { stream, pulled } = source(['123', '456', '789', 'abc'])
    const error = await readCappedBody(stream, 5).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BodyTooLargeError)
    expect(error).toMatchObject({ limit: 5, declared: undefined, message: 'body exceeds the 5-byte limit' })
    expect(stream.destroyed).toBe(true)
    // The second chunk passed the cap: nothing after it is asked for.
    expect(pulled()).toBeLessThanOrEqual(3)
  })

  it('a declared content-length over the cap is refused before any byte is read', async () => {
    const { stream, pulled } = source(['1'])
    await expect(readCappedBody(stream, 5, { contentLength: '6', what: 'reply' })).rejects.toThrow(
      'reply of 6 bytes exceeds the 5-byte limit',
    )
    expect(pulled()).toBe(0)
    expect(stream.destroyed).toBe(true)
  })

  it('a declared length within the cap does not excuse a longer body', async () => {
    await expect(
      readCappedBody(source(['123', '456']).stream, 5, { contentLength: '3', what: 'lead' }),
    ).rejects.toThrow('lead exceeds the 5-byte limit')
  })

  it('passes on a stream error', async () => {
    const stream = new Readable({
      read() {
        this.destroy(new Error('socket hang up'))
      },
    })
    await expect(readCappedBody(stream, 5)).rejects.toThrow('socket hang up')
  })
})

describe('createCappedBody', () => {
  it('reads content-length as a header comes: a string, a string array, or nothing', () => {
    const body = createCappedBody(10)
    expect(body.declare(undefined)).toBeUndefined()
    expect(body.declare('10')).toBeUndefined()
    expect(body.declare('not a number')).toBeUndefined()
    expect(body.declare('11')).toMatchObject({ limit: 10, declared: 11 })
    expect(body.declare(['12'])).toMatchObject({ declared: 12 })
    expect(body.declare(11)?.message).toBe('body of 11 bytes exceeds the 10-byte limit')
  })

  it('keeps chunks up to the cap; the chunk that passes it is refused and not kept', () => {
    const body = createCappedBody(4, { what: 'reply' })
    expect(body.push(Buffer.from('ab'))).toBeUndefined()
    expect(body.push(Buffer.from('cd'))).toBeUndefined()
    expect(body.push(Buffer.from('e'))?.message).toBe('reply exceeds the 4-byte limit')
    expect(body.size).toBe(4)
    expect(body.text()).toBe('abcd')
  })
})
