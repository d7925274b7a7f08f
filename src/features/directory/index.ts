// The directory's screens (departments, locations, specialists): one route each.
export { DepartmentAddPage, DepartmentEditPage } from './department-pages.tsx'
export { DepartmentsPage } from './departments-page.tsx'
export { LocationAddPage, LocationEditPage } from './location-pages.tsx'
export { LocationsPage } from './locations-page.tsx'
export { SpecialistAddPage, SpecialistEditPage } from './specialist-pages.tsx'
export { SpecialistsPage } from './specialists-page.tsx'
