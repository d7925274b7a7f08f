// Only Mantine's baseline, variables and globals (~5 KiB): the hand-written screens use its
// variables. Its components' CSS loads with Mantine itself (src/ui/mantine-root.tsx), in the same
// `mantine` cascade layer, after these: an unlayered baseline would beat every component's rule.
// Then the app's theme (theme.css). The page's first stylesheet: the first import of
// src/app/main.tsx, so it comes first whatever the modules after it bring.
import '@mantine/core/styles/baseline.layer.css'
import '@mantine/core/styles/default-css-variables.layer.css'
import '@mantine/core/styles/global.layer.css'
import './theme.css'
