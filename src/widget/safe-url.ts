/**
 * @module The one gate every upstream URL passes before it becomes a link, an image or a pixel: the contract's
 * http(s) URL predicate, re-exported where the widget has always imported it.
 */
export { safeHttpUrl } from '../contract/http-url.ts'
