/**
 * @module Main entry of the server package (`offer-widget-server`, built by `npm run pack`): the BFF as an
 * app for any fetch runtime (`createBff`), as a Node server (`startServer`), its configuration, the
 * second-look marketplace as BFF routes, and the sandbox. Subpaths carry the rest: `/bff`,
 * `/marketplace`, `/ledger`, `/sandbox`, `/partner-kit`. Safe to import from a Next.js server component or
 * route module: importing reads no environment and opens nothing (`loadConfig()` and `createBff()` do, when
 * called; `createRouteHandlers` calls them on the first request).
 */

export type { BffApp, BffOptions } from './bff/create-bff.ts'
export { createBff } from './bff/create-bff.ts'
export type { CreateServerSearchOptions, ServerSearch } from './bff/create-server-search.ts'
export { createServerSearch, ServerSearchError } from './bff/create-server-search.ts'
export type { PublisherEmbed } from './bff/embed-assets.ts'
export { publisherEmbed, readEmbedManifest } from './bff/embed-assets.ts'
export type { Logger } from './bff/logger.ts'
export { createLogger } from './bff/logger.ts'
export type { ReadVisitorOptions, VisitorSource } from './bff/read-visitor.ts'
export { readVisitor, VisitorError } from './bff/read-visitor.ts'
export type { RouteHandler, RouteHandlers } from './bff/route-handlers.ts'
export { createRouteHandlers } from './bff/route-handlers.ts'
export type { RenderWidgetHtmlOptions } from './bff/widget-renderer.ts'
export { renderWidgetHtml } from './bff/widget-renderer.ts'
export type { Config } from './config.ts'
export { ConfigError, loadConfig } from './config.ts'
export type { SecondLook, SecondLookKit, StartSecondLookOptions } from './marketplace/start-second-look.ts'
export { startSecondLook } from './marketplace/start-second-look.ts'
export type { ServedSandbox, ServeSandboxOptions } from './sandbox/serve-sandbox.ts'
export { serveSandbox } from './sandbox/serve-sandbox.ts'
export type { RunningServer, StartServerOptions } from './server.ts'
export { nodeStaticFiles, startServer } from './server.ts'
