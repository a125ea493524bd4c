/**
 * @module axe-core inside the widget's shadow root, as the frame runs it after every change of the widget:
 * its violations with the node each was found on. Page-level rules (landmarks, the page's h1) are the host
 * page's business and are not run on a component.
 */
import axe from 'axe-core'
import type { A11yViolation } from './frame-protocol.ts'

export interface A11yResult {
  violations: A11yViolation[]
  passes: number
}

export async function checkWidget(hostSelector: string): Promise<A11yResult> {
  const results = await axe.run(
    { include: [{ fromShadowDom: [hostSelector, '.ow-embed'] }] },
    { resultTypes: ['violations'] },
  )
  return {
    passes: results.passes.length,
    violations: results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((node) => ({
        target: node.target.map((part) => (Array.isArray(part) ? part.join(' >> ') : String(part))).join(' '),
        html: node.html,
        summary: node.failureSummary ?? '',
      })),
    })),
  }
}
