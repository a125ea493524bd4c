/**
 * @module Bounded sockets on the real Node server: a body declared and never sent, and a connection that
 * never sends its headers, are cut by the configured timeouts; one address cannot hold more than
 * MAX_CONNECTIONS_PER_IP sockets, unless it is a trusted proxy.
 */
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/server/config.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { UA } from './support/harness.ts'

let running: RunningServer | undefined
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await running?.close()
  running = undefined
})

async function start(env: Record<string, string>) {
  running = await startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ...env }), {
    staticRoot: '/nonexistent',
    secondLook: false,
  })
  return running
}

type Client = Socket & { received: () => string; ended: Promise<void> }

async function open(port: number): Promise<Client> {
  const socket = connect(port, '127.0.0.1')
  sockets.push(socket)
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  let received = ''
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString()
  })
  socket.on('error', () => {})
  await once(socket, 'connect')
  return Object.assign(socket, { received: () => received, ended: closed })
}

describe('slow clients', () => {
  it('a body declared and never sent is cut with 408 once HTTP_REQUEST_TIMEOUT_MS has passed', async () => {
    const server = await start({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '1000' })
    const socket = await open(server.port)
    socket.write(
      `POST /api/offer-searches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Offer-Widget: t\r\nUser-Agent: ${UA}\r\nContent-Length: 100\r\n\r\n{"produc`,
    )
    await socket.ended
    expect(socket.received()).toMatch(/^HTTP\/1\.1 408/)
  })

  it('a connection that never sends its headers is closed once HTTP_HEADERS_TIMEOUT_MS has passed', async () => {
    const server = await start({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '1000' })
    const idle = await open(server.port)
    const partial = await open(server.port)
    partial.write('GET /healthz HTTP/1.1\r\nHost: x\r\n')
    await Promise.all([idle.ended, partial.ended])
    expect(partial.received()).toMatch(/^HTTP\/1\.1 408/)
  })
})

describe('connections per address', () => {
  it('closes connections past MAX_CONNECTIONS_PER_IP on arrival; the others are served', async () => {
    const server = await start({ MAX_CONNECTIONS_PER_IP: '5' })
    const kept = await Promise.all(Array.from({ length: 5 }, () => open(server.port)))
    const refused = await Promise.all(Array.from({ length: 3 }, () => open(server.port)))
    await Promise.all(refused.map((socket) => socket.ended))
    for (const socket of refused) expect(socket.received()).toBe('')
    const first = kept[0] as Client
    first.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
    await once(first, 'data')
    expect(first.received()).toMatch(/^HTTP\/1\.1 200/)
  })

  it('does not cap a trusted proxy, whose address every visitor shares', async () => {
    const server = await start({ MAX_CONNECTIONS_PER_IP: '2', TRUST_PROXY: 'loopback' })
    const all = await Promise.all(Array.from({ length: 6 }, () => open(server.port)))
    const answers = all.map(async (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
      await once(socket, 'data')
      return socket.received()
    })
    for (const answer of await Promise.all(answers)) expect(answer).toMatch(/^HTTP\/1\.1 200/)
  })
})
