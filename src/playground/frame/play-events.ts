/**
 * @module A play step's effect, as the DOM events a visitor's own action causes: focus, then the value set
 * through the element's native setter (React tracks values set on the element itself and would ignore
 * them) followed by `input` and `change`, or a click. Each returns why it cannot act (a disabled button, a
 * select with no such option), for the play's verdict.
 */

type Failure = string | undefined

/** The native setter of `value` for the element's own kind, in the element's own window. */
function setNativeValue(element: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, value: string) {
  const prototype = Object.getPrototypeOf(element) as object
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set
  if (setter) setter.call(element, value)
  else element.value = value
}

function inputAndChange(element: Element): void {
  element.dispatchEvent(new Event('input', { bubbles: true }))
  element.dispatchEvent(new Event('change', { bubbles: true }))
}

const kindOf = (element: Element) =>
  element.localName === 'input' ? `a ${(element as HTMLInputElement).type} input` : `a ${element.localName}`

const TEXT_INPUTS = ['text', 'email', 'tel', 'date', 'password', 'number', 'search', 'url']

export function fill(element: Element, value: string): Failure {
  const typable =
    element.localName === 'textarea' ||
    (element.localName === 'input' && TEXT_INPUTS.includes((element as HTMLInputElement).type))
  if (!typable) return `it is ${kindOf(element)}, not a text field`
  const field = element as HTMLInputElement | HTMLTextAreaElement
  if (field.disabled || field.readOnly) return 'it does not take typing (disabled or read-only)'
  field.focus()
  setNativeValue(field, value)
  inputAndChange(field)
  return undefined
}

export function select(element: Element, value: string): Failure {
  if (element.localName !== 'select') return `it is ${kindOf(element)}, not a select`
  const field = element as HTMLSelectElement
  const options = [...field.options]
  const option =
    options.find((o) => o.value === value) ?? options.find((o) => o.textContent?.trim() === value)
  if (!option) return `it has no option "${value}" (it has ${options.map((o) => `"${o.value}"`).join(', ')})`
  if (field.disabled) return 'it is disabled'
  field.focus()
  setNativeValue(field, option.value)
  inputAndChange(field)
  return undefined
}

export function check(element: Element): Failure {
  const type = (element as HTMLInputElement).type
  if (element.localName !== 'input' || (type !== 'checkbox' && type !== 'radio'))
    return `it is ${kindOf(element)}, not a checkbox or radio`
  const box = element as HTMLInputElement
  if (box.disabled) return 'it is disabled'
  if (box.checked) return undefined
  box.focus()
  // A click toggles it and fires click, input and change, as the visitor's does.
  box.click()
  return undefined
}

export function click(element: HTMLElement): Failure {
  if ((element as HTMLButtonElement).disabled) return 'it is disabled'
  element.focus()
  element.click()
  return undefined
}
