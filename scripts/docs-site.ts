/**
 * @module `npm run docs:build`: the docs site, built from `docs/` into `dist/docs/` (run by `.ci/run`).
 * - Pages: the README as the home page, every document under `docs/` (guides, the interface documents, the
 *   decision records) and the CHANGELOG, as HTML with GitHub's heading anchors, so a link that works on
 *   GitHub works here. A link to a file of the repository that is no page (a `deploy/` file, `.env.example`)
 *   keeps its text and loses its link: the site is read without the repository beside it.
 * - Reference: a page per widget prop, event and environment variable, generated from the code's own types
 *   and tables and the docs' words for each (scripts/docs-reference.ts), with an index.
 * - Search: `search.html` over an index of every page's title, headings and text (`search-index.json`).
 * The build fails, naming each, on a broken relative link or anchor (scripts/docs-links.ts) and on a
 * reference entry the code and the docs disagree on. Static files: open `dist/docs/index.html`; the search
 * reads its index with fetch, so it needs the folder served (`npx vite preview --outDir dist/docs`, any server).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import GithubSlugger from 'github-slugger'
import { Marked, type Tokens } from 'marked'
import { brokenLinks, type SitePage } from './docs-links.ts'
import { buildReference, type ReferenceEntry } from './docs-reference.ts'

const ROOT = join(import.meta.dirname, '..')
export const DOCS_OUT = join(ROOT, 'dist', 'docs')

/** A markdown source: where it is in the repository, and where its page is in the site. */
interface Source {
  file: string
  page: string
}

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name)
    if (entry.isDirectory()) return markdownUnder(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}

function sources(): Source[] {
  const docs = markdownUnder('docs').map((file) => ({
    file,
    page: file.replace(/^docs\//, '').replace(/\.md$/, '.html'),
  }))
  return [
    { file: 'README.md', page: 'index.html' },
    { file: 'CHANGELOG.md', page: 'changelog.html' },
    ...docs,
  ]
}

/** The page a repository-relative `.md` file becomes, or undefined when it is no page. */
function pageOf(file: string, all: readonly Source[]): string | undefined {
  return all.find((source) => source.file === file)?.page
}

/** The words of a heading as GitHub slugs them: markdown marks out, text kept. */
function headingText(raw: string): string {
  return raw
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*\*?|__/g, '')
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** Markdown to HTML for the page at `page`, from the repository file `file` (for its relative links). */
function render(markdown: string, file: string, page: string, all: readonly Source[]): string {
  const slugger = new GithubSlugger()
  const marked = new Marked({ gfm: true })
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const id = slugger.slug(headingText(token.text))
        return `<h${token.depth} id="${id}">${this.parser.parseInline(token.tokens)}</h${token.depth}>\n`
      },
    },
    walkTokens(token) {
      if (token.type !== 'link' && token.type !== 'image') return
      const href = (token as Tokens.Link).href
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('//')) return
      const [path = '', fragment] = href.split('#', 2)
      const target = posix.normalize(posix.join(posix.dirname(file), path))
      const targetPage = target.endsWith('.md') ? pageOf(target, all) : undefined
      if (targetPage) {
        const to = posix.relative(posix.dirname(page), targetPage) || posix.basename(targetPage)
        ;(token as Tokens.Link).href = fragment ? `${to}#${fragment}` : to
      } else if (token.type === 'image' && target.startsWith('docs/') && existsSync(join(ROOT, target))) {
        ;(token as Tokens.Image).href = posix.relative(posix.dirname(page), target.slice('docs/'.length))
      } else if (!target.endsWith('.md')) {
        // A file of the repository that is no page: its name stays, as text.
        ;(token as Tokens.Link).href = ''
      }
      // A document that is not there keeps its href, and the link check names it.
    },
  })
  return (marked.parse(markdown) as string)
    .replace(/<a href="">(.*?)<\/a>/g, '$1')
    .replace(/\bsrc="([^":#]+)"/g, (whole, src: string) => {
      // Raw HTML images (the README's): a file under docs/ is in the site at its path without docs/.
      const target = posix.normalize(posix.join(posix.dirname(file), src))
      if (!target.startsWith('docs/')) return whole
      return `src="${posix.relative(posix.dirname(page), target.slice('docs/'.length))}"`
    })
}

function titleOf(markdown: string, fallback: string): string {
  return headingText(/^#\s+(.+)$/m.exec(markdown)?.[1] ?? fallback)
}

const STYLE = `body{font:16px/1.55 system-ui,sans-serif;margin:0;color:#1a1a1a}
header{display:flex;gap:1rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid #ddd;flex-wrap:wrap}
header a{color:inherit}main{max-width:52rem;margin:0 auto;padding:1rem}
code{background:#f3f3f3;padding:0 .2em;border-radius:3px;overflow-wrap:anywhere}pre{background:#f3f3f3;padding:.75rem;overflow:auto}
pre code{padding:0}table{border-collapse:collapse;display:block;overflow:auto}td,th{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top}
img{max-width:100%}`

function layout(title: string, page: string, body: string): string {
  const up = (to: string) => posix.relative(posix.dirname(page), to) || to
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · offer-widget</title><style>${STYLE}</style></head>
<body><header><strong><a href="${up('index.html')}">offer-widget</a></strong>
<a href="${up('guides/react.html')}">Guides</a><a href="${up('reference/index.html')}">Reference</a>
<a href="${up('CONTRIBUTING.html')}">Contributing</a>
<form action="${up('search.html')}"><input name="q" type="search" aria-label="Search the docs" placeholder="Search"></form>
</header><main>
${body}
</main></body></html>
`
}

const KIND_FOLDER: Record<ReferenceEntry['kind'], string> = {
  prop: 'props',
  attribute: 'attributes',
  event: 'events',
  variable: 'variables',
}
const KIND_TITLE: Record<ReferenceEntry['kind'], string> = {
  prop: 'Widget props',
  attribute: 'Attributes (script tag, offer-widget element)',
  event: 'Events',
  variable: 'Environment variables',
}

function referencePages(entries: readonly ReferenceEntry[], docs: readonly Source[]): SitePage[] {
  // Each entry is a page as if written at docs/reference/<kind>/<name>.md: entries link to each other so.
  const own = entries.map((entry) => {
    const page = `reference/${KIND_FOLDER[entry.kind]}/${entry.name}.html`
    return { entry, page, file: `docs/${page.replace(/\.html$/, '.md')}` }
  })
  const all = [...docs, ...own]
  const pages = own.map(({ entry, page, file }) => {
    const markdown = `# \`${entry.name}\`\n\n${entry.body}\n`
    return { path: page, html: layout(entry.name, page, render(markdown, file, page, all)), entry }
  })
  const sections = (Object.keys(KIND_TITLE) as ReferenceEntry['kind'][]).map((kind) => {
    const items = pages
      .filter((p) => p.entry.kind === kind)
      .map(
        (p) =>
          `<li><a href="${posix.relative('reference', p.path)}"><code>${escapeHtml(p.entry.name)}</code></a></li>`,
      )
    return `<h2 id="${KIND_FOLDER[kind]}">${KIND_TITLE[kind]}</h2>\n<ul>${items.join('')}</ul>`
  })
  const index = {
    path: 'reference/index.html',
    html: layout(
      'Reference',
      'reference/index.html',
      `<h1 id="reference">Reference</h1>\n${sections.join('\n')}`,
    ),
  }
  return [index, ...pages.map(({ path, html }) => ({ path, html }))]
}

const SEARCH_SCRIPT = `const q=new URLSearchParams(location.search).get('q')||'';const box=document.getElementById('q');box.value=q;
const out=document.getElementById('results');fetch('search-index.json').then(r=>r.json()).then(index=>{
const show=()=>{const words=box.value.toLowerCase().split(/\\s+/).filter(Boolean);out.replaceChildren();if(!words.length)return;
const hits=index.map(p=>({p,score:words.reduce((s,w)=>s+(p.title.toLowerCase().includes(w)?5:0)+(p.text.toLowerCase().includes(w)?1:0),0),all:words.every(w=>(p.title+' '+p.text).toLowerCase().includes(w))})).filter(h=>h.all).sort((a,b)=>b.score-a.score).slice(0,50);
for(const {p} of hits){const li=document.createElement('li');const a=document.createElement('a');a.href=p.path;a.textContent=p.title;li.append(a);out.append(li)}
if(!hits.length){const li=document.createElement('li');li.textContent='Nothing found.';out.append(li)}};box.addEventListener('input',show);show()})`

function searchPage(): SitePage {
  const body = `<h1 id="search">Search</h1>
<p><input id="q" type="search" aria-label="Search the docs" autofocus></p><ul id="results"></ul>
<script>${SEARCH_SCRIPT}</script>`
  return { path: 'search.html', html: layout('Search', 'search.html', body) }
}

function searchIndex(pages: readonly SitePage[]): string {
  const entries = pages.map((page) => ({
    path: page.path,
    title: /<title>(.*?) · /.exec(page.html)?.[1] ?? page.path,
    text: page.html
      .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 4000),
  }))
  return JSON.stringify(entries)
}

export interface DocsSite {
  pages: SitePage[]
  problems: string[]
}

/** Every page of the site, and what keeps it from being published. */
export function buildDocsSite(): DocsSite {
  const all = sources()
  const pages: SitePage[] = all.map(({ file, page }) => {
    const markdown = readFileSync(join(ROOT, file), 'utf8')
    return { path: page, html: layout(titleOf(markdown, file), page, render(markdown, file, page, all)) }
  })
  const reference = buildReference()
  pages.push(...referencePages(reference.entries, all), searchPage())
  const problems = [
    ...reference.problems,
    ...brokenLinks(pages).map(({ page, href, why }) => `${page}: link "${href}": ${why}`),
  ]
  return { pages, problems }
}

function main(): void {
  const { pages, problems } = buildDocsSite()
  rmSync(DOCS_OUT, { recursive: true, force: true })
  for (const page of pages) {
    mkdirSync(dirname(join(DOCS_OUT, page.path)), { recursive: true })
    writeFileSync(join(DOCS_OUT, page.path), page.html)
  }
  writeFileSync(join(DOCS_OUT, 'search-index.json'), searchIndex(pages))
  cpSync(join(ROOT, 'docs', 'images'), join(DOCS_OUT, 'images'), { recursive: true })
  if (problems.length > 0) {
    console.error(`docs:build: ${problems.length} problems:\n${problems.map((p) => `  ${p}`).join('\n')}`)
    process.exit(1)
  }
  const reference = pages.filter((page) => page.path.startsWith('reference/')).length - 1
  console.log(
    `docs:build: ${pages.length} pages (${reference} reference) in ${relative(ROOT, DOCS_OUT)}/, every link checked`,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main()
