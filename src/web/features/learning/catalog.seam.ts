// Learning's catalogue seam: the published programs, which the avatar menu (accounts) lists and
// the plans' cards (billing) open by level.
export { usePrograms } from "./catalog-api.ts";
