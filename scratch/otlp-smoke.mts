import { createServer } from 'node:http'
import { spawn } from 'node:child_process'
const bodies: Buffer[] = []
const recv = createServer((req, res) => { const chunks: Buffer[] = []; req.on('data', (c) => chunks.push(c)); req.on('end', () => { bodies.push(Buffer.concat(chunks)); res.writeHead(200, {'content-type':'application/json'}); res.end('{}') }) })
await new Promise<void>((r) => recv.listen(0, '127.0.0.1', () => r()))
const port = (recv.address() as any).port
const child = spawn('npx', ['tsx', 'src/server.ts'], { cwd: '/work/main', env: { ...process.env, PORT: '8899', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] })
let log = ''
child.stdout.on('data', (d) => { log += d })
for (let i = 0; i < 100 && !log.includes('listening'); i++) await new Promise((r) => setTimeout(r, 200))
const base = 'http://127.0.0.1:8899'
const h = { 'content-type': 'application/json', 'x-offer-widget': '1', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120' }
const c = await fetch(`${base}/api/offer-searches`, { method: 'POST', headers: h, body: JSON.stringify({ autoInsuranceInformation: {}, personalInformation: { zipcode: '94105' } }) })
const created = await c.json() as any
console.log('create', c.status, JSON.stringify(created).slice(0, 200))
for (let i = 0; i < 3 && created.rateTable; i++) { const p = await fetch(`${base}/api/offer-searches/${created.rateTable.uuid}`, { headers: { ...h, 'x-offer-access-token': created.accessToken } }); console.log('poll', p.status); await new Promise((r) => setTimeout(r, 1000)) }
await new Promise((r) => setTimeout(r, 1500))
child.kill('SIGTERM')
await new Promise((r) => child.on('exit', r))
recv.close()
const spans: any[] = []
for (const b of bodies) { const j = JSON.parse(b.toString()); for (const rs of j.resourceSpans ?? []) for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ scope: ss.scope.name, name: s.name, trace: s.traceId.slice(0, 8), id: s.spanId.slice(0, 6), parent: (s.parentSpanId ?? '').slice(0, 6), attrs: Object.fromEntries((s.attributes ?? []).map((a: any) => [a.key, Object.values(a.value)[0]])) }) }
for (const s of spans) console.log(JSON.stringify(s))
console.log(log.split('\n').filter((l) => l.includes('trace_id')).slice(0, 5).join('\n'))
