/**
 * The n-th text block of a test scene, as the API adds it (`/api/text/add`), with nothing of the
 * app's code: the browser journeys use it as it is, the scenarios as a `LocalBlock`.
 */
export function textBlockBody(bgId: number, n: number) {
  return {
    bg_id: bgId,
    type: 'text' as const,
    x: n % 50,
    y: -(n % 30),
    zindex: n,
    rotation: 0,
    width: 40,
    fontSize: 6,
    font: 'Inter',
    align: 'center' as const,
    color: '#112233',
    text: `Текст ${n}`,
    background: 'transparent',
    name: `Блок ${n}`,
  }
}
