/**
 * @module What a start that cannot serve says: a start-up-specific 503 code, and one structured line naming
 * DATABASE_URL and the fix when PostgreSQL is unreachable (it was a bare ECONNREFUSED stack).
 */
import { expect, it } from 'vitest'
import { notServingResponse, startFailureLine } from '../src/start-failure.ts'

it('answers a request during start-up with 503 starting, and during shutdown with 503 shutting_down', async () => {
  const starting = notServingResponse(false)
  expect(starting.status).toBe(503)
  expect((await starting.json()).code).toBe('starting')
  expect(starting.headers.get('retry-after')).toBe('1')
  expect(starting.headers.get('connection')).toBe('close')
  expect((await notServingResponse(true).json()).code).toBe('shutting_down')
})

it('names DATABASE_URL and the fix in one JSON line when PostgreSQL refuses, without the URL', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5999'), { code: 'ECONNREFUSED' })
  const wrapped = new Error('ledger open failed', { cause: new AggregateError([refused], 'connect failed') })
  const databaseUrl = 'postgres://user:hunter2@127.0.0.1:5999/db'
  for (const error of [refused, wrapped]) {
    const line = startFailureLine(error, { databaseUrl })
    expect(line).not.toContain('\n')
    expect(line).not.toContain('hunter2')
    const parsed = JSON.parse(line)
    expect(parsed).toMatchObject({ level: 'fatal', variable: 'DATABASE_URL', code: 'ECONNREFUSED' })
    expect(parsed.fix).toMatch(/DATABASE_URL/)
  }
})

it('does not blame DATABASE_URL when it is unset or the error is another', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
  expect(JSON.parse(startFailureLine(refused, {})).variable).toBeUndefined()
  const other = JSON.parse(startFailureLine(new Error('boom'), { databaseUrl: 'postgres://x@h/db' }))
  expect(other).toMatchObject({ level: 'fatal', msg: 'cannot start: boom' })
})
