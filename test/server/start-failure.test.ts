/**
 * @module What a start that cannot serve says: a start-up-specific 503 code, and one structured line naming
 * DATABASE_URL and the fix when PostgreSQL is unreachable (it was a bare ECONNREFUSED stack), PORT and the fix
 * when the port is taken (it was a bare EADDRINUSE; test/server/start-server.test.ts starts a server on a taken port).
 */
import { expect, it } from 'vitest'
import { notServingResponse, startFailureLine } from '../../src/server/start-failure.ts'

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

it('never echoes a credential a driver quotes in its message (issue 44)', () => {
  const databaseUrl = 'postgres://app:s3cr3t-XYZ@db.internal:5432/ledger?sslpassword=s3cr3t-XYZ'
  const refused = Object.assign(new Error(`could not connect to ${databaseUrl}`), { code: 'ECONNREFUSED' })
  const parsed = JSON.parse(startFailureLine(refused, { databaseUrl }))
  expect(parsed.variable).toBe('DATABASE_URL')
  expect(parsed.reason).toBe(
    'could not connect to postgres://app:***@db.internal:5432/ledger?sslpassword=***',
  )
  // An error the start does not recognise is printed as its message: redacted the same way.
  const other = startFailureLine(new Error(`bad option in 'redis://:s3cr3t-XYZ@cache:6379/0'`), {})
  expect(JSON.parse(other).msg).toBe("cannot start: bad option in 'redis://:***@cache:6379/0'")
})

it('does not blame DATABASE_URL when it is unset or the error is another', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
  expect(JSON.parse(startFailureLine(refused, {})).variable).toBeUndefined()
  const other = JSON.parse(startFailureLine(new Error('boom'), { databaseUrl: 'postgres://x@h/db' }))
  expect(other).toMatchObject({ level: 'fatal', msg: 'cannot start: boom' })
})

it('names PORT and the fix when the port is taken, HOST when it is not an address here', () => {
  const listenError = (code: string) =>
    Object.assign(new Error(`listen ${code}: 127.0.0.1:8787`), { code, syscall: 'listen', port: 8787 })
  const taken = JSON.parse(startFailureLine(listenError('EADDRINUSE'), { port: 8787, host: '127.0.0.1' }))
  expect(taken).toMatchObject({
    level: 'fatal',
    msg: 'cannot start: port 8787 on 127.0.0.1 is already in use by another process',
    variable: 'PORT',
    fix: 'stop the other process on port 8787, or choose a free port: PORT=8788 npm start',
  })
  expect(JSON.parse(startFailureLine(listenError('EACCES'), { port: 80, host: '0.0.0.0' }))).toMatchObject({
    variable: 'PORT',
    fix: expect.stringMatching(/above 1023/),
  })
  expect(
    JSON.parse(startFailureLine(listenError('EADDRNOTAVAIL'), { port: 8787, host: '10.9.9.9' })),
  ).toMatchObject({ variable: 'HOST', msg: expect.stringContaining('10.9.9.9') })
  // The same code from anything but listening (a DATA_DIR it may not write) is not blamed on PORT.
  const mkdir = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES', syscall: 'mkdir' })
  expect(JSON.parse(startFailureLine(mkdir, { port: 8787, host: '127.0.0.1' })).variable).toBeUndefined()
})
