/**
 * @module Whether an expected result of a play script (play-step.ts `expect`) holds in the widget now: a text
 * shown or not, shown so many times, a field holding a value. The widget's text is what a visitor sees or a
 * screen reader reads (its `textContent`, whitespace folded). A miss says what was there instead, so a
 * failing play reads like the "actual result" line of a bug report.
 */
import type { ExpectStep } from './play-step.ts'
import { type Found, findControl, normalize } from './play-target.ts'

/** Non-overlapping occurrences of `wanted` in `text`. */
function occurrences(text: string, wanted: string): number {
  if (!wanted) return 0
  let count = 0
  for (let at = text.indexOf(wanted); at !== -1; at = text.indexOf(wanted, at + wanted.length)) count++
  return count
}

/** A field's value as a visitor reads it: a select's chosen option by value or text, a text field's text. */
function fieldValue(element: Element): { value: string; text: string } | undefined {
  if (element.localName === 'select') {
    const field = element as HTMLSelectElement
    return { value: field.value, text: normalize(field.selectedOptions[0]?.textContent) }
  }
  if (element.localName === 'textarea' || element.localName === 'input') {
    const field = element as HTMLInputElement
    if (field.type === 'checkbox' || field.type === 'radio') return undefined
    return { value: field.value, text: field.value }
  }
  return undefined
}

/** `{ element: true }` when the expectation holds, else what was seen instead. */
export function checkExpectation(root: ParentNode, step: ExpectStep): Found<true> {
  const wanted = normalize(step.expect)
  if ('value' in step) {
    const found = findControl(root, step.expect)
    if ('missing' in found) return found
    const held = fieldValue(found.element)
    if (!held) return { missing: `it is a ${found.element.localName} with no text value`, ambiguous: true }
    if (held.value === step.value || held.text === normalize(step.value)) return { element: true }
    return { missing: `it holds "${held.text}"` }
  }
  const count = occurrences(normalize(root.textContent), wanted)
  if ('count' in step) {
    return count === step.count
      ? { element: true }
      : { missing: `it is shown ${count} time${count === 1 ? '' : 's'}` }
  }
  if (step.absent) return count === 0 ? { element: true } : { missing: 'it is shown' }
  return count > 0 ? { element: true } : { missing: 'it is not shown' }
}
