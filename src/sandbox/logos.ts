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

/**
 * A 48x48 mark: the initials on the company's colour, as many carriers' app icons are. The name is the
 * image's accessible name only: the card prints the company's name beside it, once.
 */
export function logoSvg(name: string, color: string): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48" role="img" ' +
    `aria-label="${escapeXml(name)}"><rect width="48" height="48" rx="10" fill="${escapeXml(color)}"/>` +
    '<text x="24" y="30.5" font-family="system-ui,sans-serif" font-size="18" font-weight="700" ' +
    `fill="#fff" text-anchor="middle">${escapeXml(initials(name))}</text></svg>`
  )
}
