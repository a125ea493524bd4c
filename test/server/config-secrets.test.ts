/**
 * Secrets that cannot be weak (issue 44): `REPORTS_TOKEN=x` started, a `SESSION_SECRET` of 32 `a`s and one
 * value shared by every secret started, an unquoted `#` in `.env` cut `REPORTS_TOKEN` to `Zq9` (and
 * `Bearer Zq9` then read every partner's report), and a UTF-8 BOM renamed the first variable. No message
 * shows a secret's value.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { secretWeakness } from '../../src/http/server-secret.ts'
import { loadConfig } from '../../src/server/config.ts'
import { applyEnvFile } from '../../src/server/env-file.ts'
import { testSecret } from '../support/test-secret.ts'

const PRODUCTION = {
  ENGINE_TOKEN: 'upstream-token-4f1c',
  ENGINE_BASE_URL_TEST: 'https://api.example.com/v1',
  PUBLIC_BASE_URL: 'https://offers.example.com',
  SESSION_SECRET: testSecret('session'),
}

/** The configuration error's text, or '' when the environment loads. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env)
    return ''
  } catch (error) {
    return String(error)
  }
}

describe('secret strength', () => {
  it('refuses short, samey and repeating secrets in every variable of ours, naming it and the fix, never the value', () => {
    const weak = {
      short: 'Zq9',
      'one character': 'a'.repeat(32),
      'nine characters': 'abcdefghi'.repeat(4),
      repeating: '0123456789abcdef'.repeat(4),
      'keyboard rows': 'qwertyuiopasdfghjklzxcvbnm1234567890',
      'alphabet and digit runs, backward': 'zyxwvutsrqponmlkjihgfedcba9876543210',
    }
    for (const [what, value] of Object.entries(weak)) {
      for (const name of ['SESSION_SECRET', 'LEAD_ID_HASH_SECRET', 'REPORTS_TOKEN']) {
        const text = refusal({ ...PRODUCTION, [name]: value })
        expect(text, `${name}: ${what}`).toMatch(
          new RegExp(`  ${name}: .*openssl rand -hex 32 \\(value not shown\\)`),
        )
        expect(text, `${name}: ${what}`).not.toContain(value)
      }
      // Sandbox mode judges a secret it is given the same way.
      expect(refusal({ REPORTS_TOKEN: value }), what).toMatch(/REPORTS_TOKEN: /)
    }
    expect(
      refusal({ ...PRODUCTION, SERVER_API_KEYS: `${testSecret('k1')},${'0123456789ab'.repeat(3)}` }),
    ).toMatch(/SERVER_API_KEYS: key 2 repeats one 12-character piece/)
    expect(refusal({ ...PRODUCTION, SESSION_SECRET: 'asdfghjkl;qwertyuiop1234567890zxcvbnm' })).toMatch(
      / {2}SESSION_SECRET: is mostly keyboard rows or alphabet and digit runs .*: it is not random; use openssl rand -hex 32 \(value not shown\)/,
    )
    expect(secretWeakness(testSecret('any'))).toBeUndefined()
    expect(secretWeakness(testSecret('any', 32))).toBeUndefined()
  })

  it('refuses one value in two variables, the upstream token included', () => {
    const shared = testSecret('shared')
    expect(refusal({ ...PRODUCTION, REPORTS_TOKEN: PRODUCTION.SESSION_SECRET })).toMatch(
      /REPORTS_TOKEN: holds the same value as SESSION_SECRET; give each its own/,
    )
    expect(
      refusal({
        ...PRODUCTION,
        LEAD_ID_HASH_SECRET: shared,
        SERVER_API_KEYS: `${testSecret('k')},${shared}`,
      }),
    ).toMatch(/SERVER_API_KEYS: key 2 holds the same value as LEAD_ID_HASH_SECRET/)
    const token = testSecret('token')
    expect(refusal({ ...PRODUCTION, ENGINE_TOKEN: token, SESSION_SECRET: token })).toMatch(
      /SESSION_SECRET: holds the same value as ENGINE_TOKEN/,
    )
    expect(refusal({ ...PRODUCTION, REPORTS_TOKEN: testSecret('reports') })).toBe('')
  })
})

describe('.env read strictly', () => {
  const dir = mkdtempSync(join(tmpdir(), 'config-strict-env-'))
  const write = (text: string) => {
    const file = join(dir, `${Math.random().toString(36).slice(2)}.env`)
    writeFileSync(file, text)
    return file
  }

  it('drops a byte-order mark, so the first variable keeps its name', () => {
    const env: Record<string, string | undefined> = {}
    const result = applyEnvFile(write(`\uFEFFREPORTS_TOKEN=${testSecret('bom')}\nPORT=9001\n`), env)
    expect(result?.set).toEqual(['PORT', 'REPORTS_TOKEN'])
    expect(env.REPORTS_TOKEN).toBe(testSecret('bom'))
  })

  it('warns, by name and never by value, of a value cut at an unquoted #; the cut secret is then refused', () => {
    const env: Record<string, string | undefined> = {}
    const result = applyEnvFile(
      write(
        [
          'REPORTS_TOKEN=Zq9#kLm2vX8pQ4rT7wY1zA5bC3dE6fG0hJ',
          `SESSION_SECRET="${testSecret('quoted')}#kept"`,
          'LOG_LEVEL=info # a comment, written as one',
          '# PORT=1#2',
        ].join('\n'),
      ),
      env,
    )
    expect(result?.warnings).toEqual([
      'REPORTS_TOKEN: the value is cut at "#" (an unquoted # starts a comment); quote the value if # is part of it',
    ])
    expect(env.REPORTS_TOKEN).toBe('Zq9')
    expect(env.SESSION_SECRET).toBe(`${testSecret('quoted')}#kept`)
    expect(JSON.stringify(result)).not.toContain('Zq9')
    expect(refusal(env as Record<string, string>)).toMatch(/REPORTS_TOKEN: must be at least 32 characters/)
  })
})
