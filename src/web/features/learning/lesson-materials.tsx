// What a lesson holds beyond its video (docs/product.md, "Lesson notes" and "Attachments"): the
// written notes, and the files to download. Asked for as the lesson opens; the notes were rendered
// and sanitised by the server, and are shown as it sent them.
import { useId } from "react";
import { attachmentKindLabel, fileSizeLabel, type LessonContent } from "../../../shared/contracts/learning.ts";
import { useLessonContent } from "./learning-api.ts";

export function LessonMaterials({ track, moduleId }: { track: string; moduleId: string }) {
  const content = useLessonContent(track, moduleId);
  if (content.isPending) return <p className="muted lesson-materials-loading">Loading the lesson's notes...</p>;
  if (content.isError) {
    return (
      <div role="alert" className="form-error load-error">
        <span>The lesson's notes and files could not load.</span>
        <button type="button" className="button button-secondary button-small" onClick={() => void content.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  return <Materials content={content.data} />;
}

function Materials({ content }: { content: LessonContent }) {
  const notesId = useId();
  const filesId = useId();
  return (
    <>
      {content.notesHtml !== "" && (
        <section className="lesson-notes" aria-labelledby={notesId}>
          <h3 id={notesId} className="visually-hidden">
            Lesson notes
          </h3>
          <div className="lesson-notes-body" dangerouslySetInnerHTML={{ __html: content.notesHtml }} />
        </section>
      )}
      {content.attachments.length > 0 && (
        <section className="lesson-files" aria-labelledby={filesId}>
          <h3 id={filesId}>Downloads</h3>
          <ul className="lesson-file-list">
            {content.attachments.map((file) => (
              <li key={file.id}>
                <a href={file.url} download={file.fileName} className="lesson-file">
                  <span className="lesson-file-name">{file.fileName}</span>{" "}
                  <span className="muted lesson-file-meta">
                    {attachmentKindLabel(file.contentType)}, {fileSizeLabel(file.sizeBytes)}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
