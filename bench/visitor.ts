/**
 * The user agent the benches present: a visitor's phone browser. The BFF answers declared bots (isbot, which
 * counts "Mozilla/5.0 (bench)" and "bench/1" among them) 403 before any billed search, so a bench that named
 * itself would measure the refusal, not the search.
 */
export const VISITOR_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
