/** Up to two capital letters for an avatar ("Анна Петрова" → "АП"). */
export function initials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => Array.from(part)[0] ?? '')
    .join('')
  return letters.toUpperCase() || '?'
}
