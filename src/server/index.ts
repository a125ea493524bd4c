/**
 * @module Main entry of the server package (`offer-widget-server`, built by `npm run pack`): the BFF as an
 * app for any fetch runtime (`createBff`), as a Node server (`startServer`), its configuration, the
 * second-look marketplace the BFF serves (`startSecondLook`), the sandbox, and what a publisher's own server imports
 * (src/publisher/). Subpaths carry the rest: `/bff`,
 * `/marketplace`, `/ledger`, `/sandbox`, `/partner-kit`. Safe to import from a Next.js server component or
 * route module: importing reads no environment and opens nothing (`loadConfig()` and `createBff()` do, when
 * called; `createRouteHandlers` calls them on the first request).
 */

export type { BffConfig } from '../bff/bff-config.ts'
export type { BffApp, BffOptions } from '../bff/create-bff.ts'
export { createBff } from '../bff/create-bff.ts'
export type { Logger } from '../bff/logger.ts'
export { createLogger } from '../bff/logger.ts'
export type { SecondLookMount } from '../bff/services.ts'
export type {
  CreateServerSearchOptions,
  PublisherEmbed,
  ReadVisitorOptions,
  RenderWidgetHtmlOptions,
  RouteHandler,
  RouteHandlers,
  ServerSearch,
  VisitorSource,
} from '../publisher/index.ts'
export {
  createRouteHandlers,
  createServerSearch,
  publisherEmbed,
  readEmbedManifest,
  readVisitor,
  renderWidgetHtml,
  ServerSearchError,
  VisitorError,
} from '../publisher/index.ts'
export type { ServedSandbox, ServeSandboxOptions } from '../sandbox/serve-sandbox.ts'
export { serveSandbox } from '../sandbox/serve-sandbox.ts'
export type { Config } from './config.ts'
export { ConfigError, loadConfig } from './config.ts'
export type { SecondLook, StartSecondLookOptions } from './start-second-look.ts'
export { startSecondLook } from './start-second-look.ts'
export type { RunningServer, StartServerOptions } from './start-server.ts'
export { startServer } from './start-server.ts'
export { nodeStaticFiles } from './static-files.ts'
