/**
 * @module The bounded JSON body reader of src/http/: nesting counted without recursion, prototype keys refused
 * at any depth, and `readJsonBody` answering 400 with the field named, for the BFF and the marketplace alike.
 */
import { Hono } from 'hono'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { bffErrorSchema } from '../../src/contract/bff.ts'
import { onHttpError } from '../../src/http/errors.ts'
import { parseJsonBounded, readJsonBody } from '../../src/http/json-body.ts'

describe('parseJsonBounded', () => {
  it('counts the nesting of arrays and objects, not brackets inside strings', () => {
    expect(parseJsonBounded('{"a":{"b":[1]}}', 3)).toEqual({ ok: true, value: { a: { b: [1] } } })
    expect(parseJsonBounded('{"a":{"b":[1]}}', 2)).toMatchObject({ ok: false, field: '(body)' })
    expect(parseJsonBounded('{"a":"[[[[{{{{\\"[["}', 1)).toEqual({ ok: true, value: { a: '[[[[{{{{"[[' } })
    expect(parseJsonBounded(`${'['.repeat(5000)}${']'.repeat(5000)}`, 6)).toMatchObject({ ok: false })
  })

  it('refuses prototype keys at any depth, naming where', () => {
    expect(parseJsonBounded('{"a":{"__proto__":{"x":1}}}', 6)).toMatchObject({
      ok: false,
      field: 'a.__proto__',
    })
    expect(parseJsonBounded('{"constructor":{"prototype":{}}}', 6)).toMatchObject({
      ok: false,
      field: 'constructor',
    })
    expect(parseJsonBounded('[{"b":[{"prototype":1}]}]', 6)).toMatchObject({
      ok: false,
      field: '0.b.0.prototype',
    })
  })

  it('refuses text that is not JSON', () => {
    expect(parseJsonBounded('{"a":', 6)).toMatchObject({ ok: false, reason: 'The body must be JSON' })
  })
})

describe('readJsonBody', () => {
  const app = new Hono()
    .onError(onHttpError(pino({ level: 'silent' })))
    .post('/', async (c) => c.json(await readJsonBody(c, { maxDepth: 3 })))
  const post = (body: string) => app.request('/', { method: 'POST', body })

  it('hands on a JSON object within the depth', async () => {
    const res = await post('{"a":{"b":[1]}}')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ a: { b: [1] } })
  })

  it('answers 400 in the registry shape, naming the field, for what the parser refuses', async () => {
    const res = await post('{"a":{"__proto__":{}}}')
    expect(res.status).toBe(400)
    expect(bffErrorSchema.parse(await res.json())).toEqual({
      code: 'bad_request',
      message: 'a.__proto__ is not an accepted field name',
      errors: [{ field: 'a.__proto__', reason: 'a.__proto__ is not an accepted field name' }],
    })
    expect((await (await post('{"a":{"b":[[1]]}}')).json()).errors).toEqual([
      { field: '(body)', reason: 'The body nests deeper than 3 levels' },
    ])
  })

  it('answers 400 for JSON that is not an object', async () => {
    for (const body of ['[1]', 'null', '"text"']) {
      const res = await post(body)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ code: 'bad_request', message: 'The body must be a JSON object' })
    }
  })
})
