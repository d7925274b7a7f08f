// The editor's second public entry: its block types and the page's sections as the preview draws
// them, which the published page (src/features/published) is rendered with on the server, in Node,
// where the editor's screen (PixiJS, Mantine) cannot load; and how the sync panel names a block's
// fields. Nothing here may reach the screen (docs/publishing.md, "Rendering on the server").
export { useBackgroundLabel } from './background-label.ts'
export { blockFieldOf, requestFormOf } from './blocks/index.ts'
export { stillTime } from './blocks/shared.ts'
export { useBlockLabels } from './blocks/use-block-labels.ts'
export type { LocalBlock } from './editor-data.ts'
export { FONT_FILES } from './fonts/font-files.ts'
export { facesUsedBy, FONT_SUBSETS, type FontFaceRef } from './model/fonts.ts'
export { blocksInOrder } from './model/preview-layout.ts'
export { PageSection } from './preview/page-section.tsx'
export { PublishedImagesContext } from './preview/published-images.ts'
