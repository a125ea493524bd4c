/**
 * @module The publisher snippet, as text: the one source the build, the BFF, README and the tests use.
 * It defines `window.OfferWidget` as a command queue (`mount`, `mountAll`, `unmount`, `ready`; `mount`
 * returns a stand-in handle whose `update` / `unmount` are queued too), then adds the bundle's `<script
 * async>` once, reusing a tag already on the page with the same integrity hash (another hash: a tag of its
 * own) and keeping its outcome on it for `loadOfferWidget`. The bundle replays the queue when it loads
 * (command-queue.ts). Plain ES5 so it runs anywhere the page runs; no eval, no `Function`.
 *
 * Early search (issue 31): a mount point already in the page whose only search data is `data-zip-code` has
 * its search started here, in parallel with the bundle's download, instead of after the bundle has run:
 * the same POST, body and headers the widget would send, kept in the queue as `e: [url, body, response]`.
 * The bundle adopts it for the first widget that would send exactly that request (bff-client.ts), so a
 * search is still one POST. Any other search attribute, or `data-form="always"`, leaves the search to the
 * widget: the snippet never guesses a body it might not adopt.
 */
import { ZIP_PATTERN } from '../contract/common.ts'
import { WIDGET_VERSION } from '../widget/version.ts'

/**
 * Data attributes that change the search's body or where it goes (`data-attach`, `data-source`): with any of
 * them on a mount point the widget sends its own search. A test keeps this list equal to every `search.*`
 * attribute but `data-zip-code`, plus those two.
 */
export const EARLY_SEARCH_BLOCKERS = [
  'date-of-birth',
  'current-issuer',
  'number-of-vehicles',
  'is-home-owner',
  'is-military',
  'sub-id',
  'source',
  'attach',
] as const

/** Mount points the snippet leaves to the widget: another search attribute, or the form asked for. */
const BLOCKER_SELECTOR = [
  ...EARLY_SEARCH_BLOCKERS.map((name) => `[data-${name}]`),
  '[data-form=always]',
].join(',')

/**
 * Minified by hand, kept readable. `q` entries: [method, args, stand-in handle (handle methods only)]; `e`
 * entries: [url, body, fetch promise] of early searches. `m.owS` marks a mount point searched, so a
 * second copy of the snippet does not search again.
 */
const LOADER_SOURCE =
  '(function(w,d,src,sri,v){' +
  'var a=w.OfferWidget,k=function(m,h){return function(){a.q.push([m,[].slice.call(arguments),h])}};' +
  'if(!a){a=w.OfferWidget={q:[]};' +
  '"mountAll unmount ready".split(" ").forEach(function(m){a[m]=k(m)});' +
  'a.mount=function(){var h={};h.update=k("update",h);h.unmount=k("unmount",h);' +
  'a.q.push(["mount",[].slice.call(arguments),h]);return h}}' +
  'if(!a.q)return;a.e=a.e||[];' +
  'w.fetch&&[].forEach.call(d.querySelectorAll("[data-offer-widget][data-zip-code]"),function(m){' +
  'var z=m.dataset.zipCode,e=m.dataset.endpoint,b,p;' +
  `if(m.owS||!${ZIP_PATTERN}.test(z)||m.matches(${JSON.stringify(BLOCKER_SELECTOR)}))return;` +
  // Without data-endpoint (`undefined` from `dataset`) the widget talks to the origin the bundle came from; an endpoint it would
  // refuse is left to it, and so is a path that does not start with a letter, digit or `_` after its `/`: `//host`, `/\\host`
  // and `/<tab>/host` are other origins (isEndpoint), and the rare odd path just searches a moment later.
  'if(e==null)e=new URL(src,location.href).origin;else if(!/^(\\/\\w|https?:\\/\\/|$)/.test(e))return;' +
  'e=e.replace(/\\/+$/,"")+"/api/offer-searches";' +
  // The widget's own body, key for key (search-input.ts; offer-search.ts adds the placement; JSON leaves out an
  // undefined one, as `dataset` gives without the attribute). A placement the widget refuses (placement.ts) is not in
  // its body, so the widget does not adopt this search (which the BFF refuses) and sends its own.
  'b=JSON.stringify({productTypes:["AutomobileInsurance"],personalInformation:{zipCode:z},placement:m.dataset.placement});' +
  'p=m.owS=fetch(e,{method:"POST",headers:{"Content-Type":"application/json","X-Offer-Widget":v},body:b});' +
  // Handled here so a network error is not an unhandled rejection; the widget reads the outcome itself.
  'p["catch"](function(){});a.e.push([e,b,p])});' +
  "var s=d.querySelector('script[src=\"'+src+'\"]');" +
  // A tag with another integrity hash is not ours to trust: add our own, which the browser checks.
  'if(s&&sri&&s.getAttribute("integrity")!=sri)s=null;' +
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
  return `${LOADER_SOURCE}(window,document,${arg(src)},${arg(integrity ?? '')},${arg(WIDGET_VERSION)});`
}

/** The full `<script>` element to paste into a page. */
export function loaderSnippet(options: SnippetOptions): string {
  return `<script>${loaderScript(options)}</script>`
}
