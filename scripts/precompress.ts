/**
 * @module Build-time compression of the browser assets: beside each text asset of a build's output
 * directory, `<file>.br` (brotli quality 11) and `<file>.gz` (gzip -9), which the BFF's static serving
 * (`serveStatic({ precompressed: true })`) sends by `Accept-Encoding`. Compressed once at build, at the
 * highest levels, instead of on every request at a level fast enough for one.
 *
 * Our own step on node:zlib rather than vite-plugin-compression2: that plugin wraps Vite's internal
 * manifest plugin and `process.stdout.write`, and compresses during `generateBundle`, before the embed
 * build names its file by content hash in `writeBundle`; this one runs after every file is written.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

/** Text assets worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:m?js|css|html|svg|txt|xml|wasm)$/
/** Below this a compressed copy saves less than a packet's worth. */
const MIN_BYTES = 1024

export const ENCODED_SUFFIXES = { br: '.br', gzip: '.gz' } as const

export function brotli(content: Buffer): Buffer {
  return brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  })
}

export function gzip(content: Buffer): Buffer {
  return gzipSync(content, { level: 9 })
}

/** Writes `.br` and `.gz` beside every compressible file under `dir` (when smaller); returns the sources. */
export function precompressDirectory(dir: string): string[] {
  const done: string[] = []
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = join(dir, entry)
    if (!COMPRESSIBLE.test(file) || !statSync(file).isFile()) continue
    const content = readFileSync(file)
    if (content.length < MIN_BYTES) continue
    for (const [suffix, encode] of [
      [ENCODED_SUFFIXES.br, brotli],
      [ENCODED_SUFFIXES.gzip, gzip],
    ] as const) {
      const encoded = encode(content)
      if (encoded.length < content.length) writeFileSync(`${file}${suffix}`, encoded)
    }
    done.push(file)
  }
  return done
}

/** The Vite plugin: compresses the output directory once everything is written. */
export function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'offer-widget-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        precompressDirectory(outDir)
      },
    },
  }
}
