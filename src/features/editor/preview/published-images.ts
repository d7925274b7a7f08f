import { createContext } from 'react'

/**
 * What the published page knows of the images it shows (docs/publishing.md, "Rendering on the
 * server"): each upload's resized copies, and whether the section waits until the visitor comes
 * near. The in-app preview has none and shows the uploads as they are.
 */
export interface PublishedImages {
  /** The upload's copies as `srcset` lists, WebP and its own format; null when it has none. */
  copies: (url: string) => { webp: string; own: string } | null
  /** Not in the first screen: loaded lazily. */
  lazy: boolean
}

export const PublishedImagesContext = createContext<PublishedImages | null>(null)
