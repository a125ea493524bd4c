/**
 * @module Small SVG logos for carriers and partners, served by the sandbox so that no demo or test
 * fetches an image from the internet.
 */

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)

function initials(name: string): string {
  const words = name.split(/\s+/).filter((word) => /^[A-Za-z]/.test(word))
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase())
    .join('')
}

/** A 160x48 badge: coloured mark with initials, then the name. */
export function logoSvg(name: string, color: string): string {
  const label = escapeXml(name.length > 22 ? `${name.slice(0, 21)}…` : name)
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48" role="img" ' +
    `aria-label="${escapeXml(name)}"><rect width="160" height="48" rx="6" fill="#fff"/>` +
    `<rect x="4" y="4" width="40" height="40" rx="8" fill="${escapeXml(color)}"/>` +
    '<text x="24" y="30" font-family="system-ui,sans-serif" font-size="16" font-weight="700" ' +
    `fill="#fff" text-anchor="middle">${escapeXml(initials(name))}</text>` +
    '<text x="52" y="29" font-family="system-ui,sans-serif" font-size="11" fill="#1a202c">' +
    `${label}</text></svg>`
  )
}
