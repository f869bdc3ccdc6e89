// Learning's program cards seam: the cards and Continue learning, shown on the home page (site)
// as on the programs page.
export { ContinueLearning, ProgramCards } from "./program-cards.tsx";
