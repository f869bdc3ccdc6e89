// The Questions tab: every lesson question, those the Academy team has not answered first, then the
// newest; each thread is the lesson's own, with Answer, Pin and Remove.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Link } from "react-router";
import type { AdminQuestion } from "../../../../shared/contracts/support.ts";
import { QuestionThread } from "../../learning/lesson-questions.seam.ts";
import { pageCount, Pagination, usePageParam } from "../../../ui/pagination.tsx";
import { refreshAdmin } from "../admin-api.ts";
import { useAdminQuestions } from "./admin-support-api.ts";
import { UserLink } from "../user-link.tsx";
import "./support.css";

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export function QuestionsTab() {
  const [page, setPage] = usePageParam();
  const questions = useAdminQuestions(page);
  const queryClient = useQueryClient();
  const { data } = questions;
  const lastPage = data ? pageCount(data) : 1;

  // A page that no longer exists (its questions were removed, or an old link): show the last one.
  useEffect(() => {
    if (data && !questions.isPlaceholderData && data.page > lastPage) setPage(lastPage);
  }, [data, questions.isPlaceholderData, lastPage, setPage]);

  // The threads are cards of their own, so the list is not boxed as the tables are.
  if (questions.isPending) {
    return (
      <p role="status" className="muted">
        Loading questions...
      </p>
    );
  }
  if (!data) {
    return (
      <div role="alert" className="form-error load-error">
        <span>{questions.error?.message}</span>
        <button type="button" className="button button-secondary button-small" onClick={() => void questions.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <>
      {data.questions.length === 0 ? (
        <p className="table-empty table-wrap">No questions yet.</p>
      ) : (
        <ol className={questions.isPlaceholderData ? "question-list support-question-list is-updating" : "question-list support-question-list"}>
          {data.questions.map((question) => (
            <li key={question.id}>
              <QuestionThread question={question} context={<QuestionContext question={question} />} onChanged={() => refreshAdmin(queryClient)} />
            </li>
          ))}
        </ol>
      )}
      {data.total > 0 && <Pagination page={data.page} pageSize={data.pageSize} total={data.total} label="Questions" onPageChange={setPage} />}
    </>
  );
}

function QuestionContext({ question }: { question: AdminQuestion }) {
  return (
    <p className="question-context">
      {question.unanswered && <span className="badge badge-failed">Unanswered</span>}
      {question.priority && <span className="badge badge-advanced">Advanced: priority</span>}
      <span>
        {capitalize(question.track)}: <Link to={`/program/${question.track}/${question.moduleId}`}>{question.lessonTitle}</Link>
      </span>
      <span className="muted">
        <UserLink userId={question.authorId} email={question.authorEmail} />
      </span>
    </p>
  );
}
