/**
 * @module The cross-engine suite in WebKit, Safari's engine (Debian's `webkit2gtk-driver`: WebKitWebDriver
 * and WebKitGTK's MiniBrowser on a private Xvfb display, driven by selenium-webdriver): see
 * test/e2e/support/engine-suite.ts (and the loan application's and the story plays' suites beside it).
 */
import { engineSuite } from '../support/engine-suite.ts'
import { loanApplicationSuite } from '../support/loan-engine-suite.ts'
import { playgroundPlaySuite } from '../support/playground-engine-suite.ts'

engineSuite('webkit')
loanApplicationSuite('webkit')
playgroundPlaySuite('webkit')
