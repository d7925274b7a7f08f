// The projects list (the first screen after sign-in) and a project's type page.
export { ProjectTypePage } from './project-type-page.tsx'
export { ProjectsPage } from './projects-page.tsx'
