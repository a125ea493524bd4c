/**
 * @module What a publisher's own server imports (exported from the server package's root): a search
 * created for the visitor it is serving (`createServerSearch`), that visitor's address and user agent read
 * from its request (`readVisitor`), a BFF as a framework's route handlers (`createRouteHandlers`), the
 * widget rendered into its HTML (`renderWidgetHtml`) and the script-tag snippet to paste
 * (`publisherEmbed`).
 */
export type { CreateServerSearchOptions, ServerSearch } from './create-server-search.ts'
export { createServerSearch, ServerSearchError } from './create-server-search.ts'
export type { ReadVisitorOptions, VisitorSource } from './read-visitor.ts'
export { readVisitor, VisitorError } from './read-visitor.ts'
export type { RouteHandler, RouteHandlers } from './route-handlers.ts'
export { createRouteHandlers } from './route-handlers.ts'
export type { PublisherEmbed } from './snippet.ts'
export { publisherEmbed, readEmbedManifest } from './snippet.ts'
export type { RenderWidgetHtmlOptions } from './widget-renderer.ts'
export { renderWidgetHtml } from './widget-renderer.ts'
