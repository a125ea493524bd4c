/**
 * @module Where `<OfferWidget source="second-look">` gets its loan application (ApplicationGate.tsx): a
 * chunk of its own, fetched only when a page shows the application, so the offer-search path never carries
 * it. Here (the npm package, tests, the playground) a dynamic import; the script-tag build swaps this module
 * for src/embed/load-application-chunk.ts, which loads the chunk's own file by script tag with SRI.
 */
export const loadApplication = () => import('./loan-application/ApplicationFlow.tsx')
