// Catalog's seam: the published catalogue (programs, modules, quizzes), which learning teaches
// from, support names lessons from and the admin's learner page reads.
export { loadCatalog, programAsSeenBy, type Catalog, type CatalogCache, type CatalogTrack } from "./catalog.service.ts";
