// Learning's question thread seam: a lesson's questions, with Answer, Pin and Remove, shown in the
// admin's Questions tab as under the lesson.
export { QuestionThread } from "./lesson-questions.tsx";
