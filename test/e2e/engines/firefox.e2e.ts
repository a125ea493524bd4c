/**
 * @module The cross-engine suite in Firefox ESR (Debian's `firefox-esr`, driven by puppeteer-core over
 * WebDriver BiDi): see test/e2e/support/engine-suite.ts.
 */
import { engineSuite } from '../support/engine-suite.ts'
import { loanApplicationSuite } from '../support/loan-engine-suite.ts'
import { playgroundPlaySuite } from '../support/playground-engine-suite.ts'

engineSuite('firefox')
loanApplicationSuite('firefox')
playgroundPlaySuite('firefox')
