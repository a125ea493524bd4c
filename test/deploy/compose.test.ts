/**
 * @module compose.yaml, checked offline: this machine has no Docker engine, so the file has never been run
 * here. The BFF is built from the Dockerfile and waits for healthy PostgreSQL 17 and Redis 7 (official
 * images); DATABASE_URL and REDIS_URL name those services as the docs' `docker run` does
 * (docs/running-the-bff.md) and pass the config schema; `.env` is optional and cannot move HOST, DATA_DIR or the
 * two URLs; the port is 8787. With the image's `NODE_ENV=production` and no token, the try-out needs
 * `BFF_MODE=sandbox`, as the docs' command passes it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import * as z from 'zod'
import { loadConfig } from '../../src/server/config.ts'
import { block } from '../docs/support/readme-blocks.ts'

const REPO = join(import.meta.dirname, '../..')

const healthcheck = z.object({
  test: z.array(z.string()).min(2),
  interval: z.string(),
  timeout: z.string(),
  retries: z.number().int().positive(),
})
const composeSchema = z.object({
  services: z.object({
    bff: z.object({
      build: z.object({ context: z.literal('.'), dockerfile: z.literal('deploy/Dockerfile') }),
      ports: z.array(z.string()),
      env_file: z.array(z.object({ path: z.string(), required: z.boolean() })),
      environment: z.record(z.string(), z.string()),
      depends_on: z.record(z.string(), z.object({ condition: z.string() })),
    }),
    db: z.object({
      image: z.string(),
      environment: z.record(z.string(), z.string()),
      volumes: z.array(z.string()),
      healthcheck,
    }),
    redis: z.object({ image: z.string(), healthcheck }),
  }),
  volumes: z.record(z.string(), z.unknown()),
})

/** Compose's `${NAME:-default}`: the shell's (or .env's) value of NAME, else the default. */
const interpolate = (value: string, shell: Record<string, string> = {}) =>
  value.replace(/\$\{([A-Z_]+):-([^}]*)\}/g, (_, name: string, fallback: string) => shell[name] ?? fallback)

const compose = composeSchema.parse(parse(readFileSync(join(REPO, 'compose.yaml'), 'utf8')))
const { bff, db, redis } = compose.services
const env = Object.fromEntries(
  Object.entries(bff.environment).map(([name, value]) => [name, interpolate(value)]),
)

describe('compose.yaml (not run here: no Docker engine)', () => {
  it('builds the BFF from the Dockerfile on port 8787, after PostgreSQL 17 and Redis 7 report healthy', () => {
    // The repository is the build context; the Dockerfile and its .dockerignore are in deploy/.
    expect(existsSync(join(REPO, bff.build.dockerfile))).toBe(true)
    expect(existsSync(join(REPO, `${bff.build.dockerfile}.dockerignore`))).toBe(true)
    expect(bff.ports).toEqual(['8787:8787'])
    expect(env.PORT).toBe('8787')
    expect(bff.depends_on).toEqual({
      db: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    })
    expect(db.image).toMatch(/^postgres:17(\b|$)/)
    expect(redis.image).toMatch(/^redis:7(\b|$)/)
    expect(db.healthcheck.test.join(' ')).toContain('pg_isready')
    expect(redis.healthcheck.test.join(' ')).toContain('redis-cli ping')
  })

  it("keeps PostgreSQL's data on a named volume", () => {
    const [volume, path] = (db.volumes[0] ?? '').split(':')
    expect(Object.keys(compose.volumes)).toContain(volume)
    expect(path).toBe('/var/lib/postgresql/data')
  })

  it('reads .env when it exists, with HOST, DATA_DIR and the service URLs fixed over it', () => {
    expect(bff.env_file).toEqual([{ path: '.env', required: false }])
    // .env.example's values are for `npm start` on a workstation; a container must listen on every interface.
    expect(env.HOST).toBe('0.0.0.0')
    expect(env.DATA_DIR).toBe('/var/lib/offer-widget')
  })

  it("points DATABASE_URL and REDIS_URL at the services, as the docs' docker run names them, and they load", () => {
    const database = new URL(env.DATABASE_URL ?? '')
    const cache = new URL(env.REDIS_URL ?? '')
    expect(database.hostname).toBe('db')
    expect(cache.hostname).toBe('redis')
    expect(database.username).toBe(db.environment.POSTGRES_USER)
    expect(database.password).toBe(interpolate(db.environment.POSTGRES_PASSWORD ?? ''))
    expect(database.pathname).toBe(`/${db.environment.POSTGRES_DB}`)

    const run = block('docker').code
    const readme = (name: string) => new URL(new RegExp(`-e ${name}=(\\S+)`).exec(run)?.[1] ?? '')
    for (const [url, documented] of [
      [database, readme('DATABASE_URL')],
      [cache, readme('REDIS_URL')],
    ] as const) {
      expect(url.protocol).toBe(documented.protocol)
      expect(url.host).toBe(documented.host)
      expect(url.pathname).toBe(documented.pathname)
      expect(url.username).toBe(documented.username)
    }

    const config = loadConfig(env)
    expect(config).toMatchObject({ databaseUrl: env.DATABASE_URL, redisUrl: env.REDIS_URL, port: 8787 })
    expect(config.host).toBe('0.0.0.0')
  })

  it("runs the docs' try-out as the sandbox, and asks for a mode rather than guess one without a token", () => {
    const image = Object.fromEntries(
      [...readFileSync(join(REPO, 'deploy/Dockerfile'), 'utf8').matchAll(/\b(NODE_ENV)=(\S+)/g)].map((m) => [
        m[1],
        m[2],
      ]),
    )
    expect(image.NODE_ENV).toBe('production')
    const shell = Object.fromEntries(
      [...block('compose').code.matchAll(/\b([A-Z_]+)=(\S+) docker compose/g)].map((m) => [m[1], m[2]]),
    )
    const tryOut = Object.fromEntries(
      Object.entries(bff.environment).map(([name, value]) => [name, interpolate(value, shell)]),
    )
    expect(loadConfig({ ...image, ...tryOut })).toMatchObject({
      sandboxMode: true,
      modeReason: 'BFF_MODE=sandbox',
    })
    expect(() => loadConfig({ ...image, ...env })).toThrow(
      /ENGINE_TOKEN: missing or empty with NODE_ENV=production/,
    )
  })
})
