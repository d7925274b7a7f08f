/**
 * A name as it goes inside «…» in a message: its own quotes become the inner kind, „…“, as Russian
 * typography nests them («Клиника «Здоровье»» → «Клиника „Здоровье“»). Straight double quotes in
 * pairs become „…“ too; a lone one is left as typed.
 */
export function nestQuotes(text: string): string {
  return text
    .replace(/"([^"]*)"/g, '„$1“')
    .replace(/«/g, '„')
    .replace(/»/g, '“')
}
