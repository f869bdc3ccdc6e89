// A quiz question's rules (docs/product.md, "Quiz questions"): options start with a letter and ")",
// the answer is that letter. Pure: the admin form checks a question as it is added, the server on
// every save and on every learner's answer. How an option's letter is read is quiz-option.ts's.
import { ADMIN_MESSAGES, type QuizQuestionInput } from "./contracts/admin.ts";
import { optionLetter } from "./quiz-option.ts";

/** The answer as a letter: "b", "B", "B)" and "B) Sell" all mean "B"; anything else is null. */
export function answerLetter(answer: string): string | null {
  const bare = /^\s*([A-Za-z])\s*$/.exec(answer)?.[1];
  return bare ? bare.toUpperCase() : optionLetter(answer);
}

/** The question with its answer stored as the letter of one of its options, or why it cannot be. */
export function checkQuestion(input: QuizQuestionInput): { question: QuizQuestionInput } | { error: string } {
  const letters = input.options.map(optionLetter);
  if (letters.includes(null)) return { error: ADMIN_MESSAGES.optionFormat };
  const letter = answerLetter(input.answer);
  if (letter === null || !letters.includes(letter)) return { error: ADMIN_MESSAGES.answerNotOption };
  return { question: { ...input, answer: letter } };
}
