/**
 * @module Test helper: a throwaway certificate authority and a server certificate for 127.0.0.1 signed by it,
 * made with the machine's `openssl` in a temporary folder that is removed at once, so a test can serve a
 * partner over real https (production mode refuses http endpoints) and trust it through an undici Agent
 * given the CA, without touching the system's trust store.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface LocalTls {
  /** PEM of the CA to trust. */
  ca: string
  /** PEM key and certificate of the server, valid for 127.0.0.1 and localhost. */
  key: string
  cert: string
}

export function makeLocalTls(): LocalTls {
  const dir = mkdtempSync(join(tmpdir(), 'offer-widget-tls-'))
  const at = (name: string) => join(dir, name)
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' })
  try {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=offer-widget test CA',
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.pem'),
    )
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      at('server.key'),
      '-out',
      at('server.csr'),
    )
    writeFileSync(at('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n')
    openssl(
      'x509',
      '-req',
      '-in',
      at('server.csr'),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      at('san.ext'),
      '-out',
      at('server.pem'),
    )
    return {
      ca: readFileSync(at('ca.pem'), 'utf8'),
      key: readFileSync(at('server.key'), 'utf8'),
      cert: readFileSync(at('server.pem'), 'utf8'),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
