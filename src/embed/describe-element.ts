/** @module A short CSS-like name of an element for console messages: `div#quotes.box`. */
export function describeElement(element: Element): string {
  const id = element.id ? `#${element.id}` : ''
  const classes = [...element.classList].slice(0, 2).map((name) => `.${name}`)
  return `<${element.tagName.toLowerCase()}${id}${classes.join('')}>`
}
