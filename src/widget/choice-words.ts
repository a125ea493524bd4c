/**
 * @module A choice's fix, in the words every warning of ours uses: each value it takes, joined by "or", as a
 * prop writes it (`"light" or "dark"`, `2 or 3`) or as an attribute's text (`"2" or "3"`). The options table
 * (widget-options.ts) words its choices so, and the props parser and the attribute readers say them so
 * (the generated tables leave a choice's words out). Two functions, so each bundle carries only its own.
 */
export const propChoices = (values: readonly unknown[]) =>
  values.map((value) => JSON.stringify(value)).join(' or ')

export const attributeChoices = (values: readonly unknown[]) =>
  values.map((value) => `"${value}"`).join(' or ')
