/**
 * @module Finding what a play step names, as a visitor finds it: a control by the text of its label (its
 * `<label>`, or `aria-label`), a button or link by its text. The whole text is preferred; a part of it
 * counts when exactly one element has it, so a long consent text can be named by a phrase. Each miss says
 * why, for the play's verdict.
 */

/** The element found, or why not; `ambiguous`: several match, which waiting will not mend. */
export type Found<T> = { element: T } | { missing: string; ambiguous?: true }

const CONTROLS = 'input, select, textarea'
const CLICKABLE = 'button, a[href], [role="button"], input[type="submit"], input[type="button"]'

export const normalize = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim()

/** The control a label is for: by `for` in the label's own tree (a shadow root), else the one it wraps. */
function controlOf(label: HTMLLabelElement, root: ParentNode): Element | null {
  const id = label.htmlFor
  if (id) return root.querySelector(`[id="${id.replace(/(["\\])/g, '\\$1')}"]`)
  return label.querySelector(CONTROLS)
}

/** The one candidate named `name`: whole name first, then a part of one; none or several is a miss. */
function pick<T extends Element>(
  candidates: { element: T; name: string }[],
  name: string,
  what: string,
): Found<T> {
  const wanted = normalize(name)
  const whole = candidates.filter((c) => c.name === wanted)
  const matches = whole.length > 0 ? whole : candidates.filter((c) => c.name.includes(wanted))
  const first = matches[0]
  if (matches.length === 1 && first) return { element: first.element }
  if (matches.length === 0) return { missing: `no ${what} "${name}"` }
  return {
    missing: `${matches.length} elements match ${what} "${name}": give more of its text`,
    ambiguous: true,
  }
}

/** The form control labelled `name`. */
export function findControl(root: ParentNode, name: string): Found<Element> {
  const labelled = [...root.querySelectorAll<HTMLLabelElement>('label')].flatMap((label) => {
    const element = controlOf(label, root)
    return element ? [{ element, name: normalize(label.textContent) }] : []
  })
  const named = [...root.querySelectorAll(`:is(${CONTROLS})[aria-label]`)].map((element) => ({
    element,
    name: normalize(element.getAttribute('aria-label')),
  }))
  return pick([...labelled, ...named], name, 'control labelled')
}

/** The button or link whose text (or `aria-label`) is `name`. */
export function findClickable(root: ParentNode, name: string): Found<HTMLElement> {
  const candidates = [...root.querySelectorAll<HTMLElement>(CLICKABLE)].map((element) => ({
    element,
    name: normalize(
      element.getAttribute('aria-label') ??
        (element.localName === 'input' ? (element as HTMLInputElement).value : element.textContent),
    ),
  }))
  return pick(candidates, name, 'button or link')
}
