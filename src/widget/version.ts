/** @module The widget version sent in `X-Offer-Widget`; a test keeps it equal to package.json. */
export const WIDGET_VERSION = '0.1.0'
