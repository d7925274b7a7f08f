/**
 * Up to two capital letters for an avatar, as Mantine's Avatar draws them: the first letters of the
 * first two words («Иванова Анна Сергеевна» → «ИА»), or the first two letters of a single word
 * («анна» → «АН»); «?» for a blank name. Counts code points, so a letter is never cut in half.
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return '?'
  const letters =
    words.length === 1
      ? Array.from(words[0]!).slice(0, 2).join('')
      : words
          .slice(0, 2)
          .map((word) => Array.from(word)[0] ?? '')
          .join('')
  return letters.toUpperCase()
}
