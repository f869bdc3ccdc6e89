// A lesson's notes, from the admin's Markdown to the HTML learners are sent (docs/product.md,
// "Lesson notes"). Rendered once, when the lesson is saved; what comes out holds only the elements
// and attributes listed here, whatever the Markdown held: no script, frame, style, event handler
// or link to anything but the web and email.
import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

// Raw HTML in the Markdown is shown as text, not interpreted; links are never guessed from text
// that merely looks like an address, which would turn "EUR/USD" notes into links by accident.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2", "h3", "h4", "p", "br", "hr", "strong", "em", "del", "code", "pre", "blockquote",
    "ul", "ol", "li", "a", "img", "table", "thead", "tbody", "tr", "th", "td",
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "loading"],
    ol: ["start"],
    th: ["style"],
    td: ["style"],
  },
  // markdown-it aligns table columns with text-align, the only style kept.
  allowedStyles: { th: { "text-align": [/^(left|right|center)$/] }, td: { "text-align": [/^(left|right|center)$/] } },
  allowedSchemes: ["https", "http", "mailto"],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  // Images come from the academy itself (a lesson's attachment): the pages' Content-Security-Policy
  // allows no other host, and a learner's data is not spent on someone else's server.
  exclusiveFilter: (frame) => frame.tag === "img" && !/^\/(?!\/)/.test(frame.attribs.src ?? ""),
  transformTags: {
    // The lesson's title is the page's h2: the notes' headings sit under it.
    h1: "h2",
    h5: "h4",
    h6: "h4",
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.href?.startsWith("/") ? attribs : { ...attribs, target: "_blank", rel: "noopener noreferrer" },
    }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
  },
};

/** The notes as learners are sent them: Markdown rendered, then only the allowed HTML kept. */
export function renderLessonNotes(notes: string): string {
  if (notes.trim() === "") return "";
  return sanitizeHtml(markdown.render(notes), ALLOWED).trim();
}
