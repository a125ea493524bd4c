/**
 * @module `npm run bench`: runs every benchmark and prints one table per benchmark.
 */
console.log('bench: no benchmarks yet; the BFF, widget and marketplace issues add them.')
