import { useLayoutEffect } from 'react'

/** Sets the tab's title while the page is shown (Mantine-free, for the light screens). */
export function useDocumentTitle(title: string): void {
  useLayoutEffect(() => {
    if (title.trim()) document.title = title.trim()
  }, [title])
}
