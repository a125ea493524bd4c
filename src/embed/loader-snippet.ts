/**
 * @module The publisher snippet, as text: the one source the build, the BFF, README and the tests use.
 * It defines `window.OfferWidget` as a command queue (`mount`, `mountAll`, `unmount`, `ready`; `mount`
 * returns a stand-in handle whose `update` / `unmount` are queued too), then adds the bundle's `<script
 * async>` once, reusing a tag already on the page with the same integrity hash (another hash: a tag of its
 * own) and keeping its outcome on it for `loadOfferWidget`. The bundle replays the queue when it loads
 * (command-queue.ts). Plain ES5 so it runs anywhere the page runs; no eval, no `Function`.
 */

/** Minified by hand, kept readable. `q` entries: [method, args, stand-in handle (handle methods only)]. */
const LOADER_SOURCE =
  '(function(w,d,src,sri){' +
  'var a=w.OfferWidget,k=function(m,h){return function(){a.q.push([m,[].slice.call(arguments),h])}};' +
  'if(!a){a=w.OfferWidget={q:[]};' +
  '"mountAll unmount ready".split(" ").forEach(function(m){a[m]=k(m)});' +
  'a.mount=function(){var h={};h.update=k("update",h);h.unmount=k("unmount",h);' +
  'a.q.push(["mount",[].slice.call(arguments),h]);return h}}' +
  'if(!a.q)return;' +
  "var s=d.querySelector('script[src=\"'+src+'\"]');" +
  // A tag with another integrity hash is not ours to trust: add our own, which the browser checks.
  'if(s&&sri&&s.getAttribute("integrity")!==sri)s=null;' +
  'if(!s){s=d.createElement("script");s.async=true;s.src=src;' +
  'if(sri){s.setAttribute("integrity",sri);s.crossOrigin="anonymous"}' +
  // The outcome, kept for loadOfferWidget: a settled tag fires no event again.
  'var t=function(v){return function(){s.setAttribute("data-offer-widget-state",v)}};' +
  's.addEventListener("load",t("loaded"));s.addEventListener("error",t("failed"));' +
  '(d.head||d.documentElement).appendChild(s)}' +
  '})'

export interface SnippetOptions {
  /** Absolute URL of the versioned bundle. */
  src: string
  /** Its SRI hash (`sha384-...`). */
  integrity?: string
}

/** The JavaScript of the snippet (what goes between `<script>` and `</script>`). */
export function loaderScript({ src, integrity }: SnippetOptions): string {
  // JSON.stringify, then `<` escaped, so no value can close the script element.
  const arg = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c')
  return `${LOADER_SOURCE}(window,document,${arg(src)},${arg(integrity ?? '')});`
}

/** The full `<script>` element to paste into a page. */
export function loaderSnippet(options: SnippetOptions): string {
  return `<script>${loaderScript(options)}</script>`
}
