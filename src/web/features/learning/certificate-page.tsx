// /certificates/:id (docs/product.md, "Completion and certificates"): anyone with the link checks
// that a certificate is genuine, or sees that it was revoked or never issued. Printed, it fills an
// A4 page without the site around it; the holder shares it by its link.
import { Link, useParams } from "react-router";
import { formatCertificateDate, type PublicCertificate } from "../../../shared/contracts/certificates.ts";
import { ApiRequestError } from "../../lib/api.ts";
import { usePageTitle } from "../../lib/page-title.ts";
import { notify } from "../../ui/toast.tsx";
import { useCertificate } from "./certificate-api.ts";
import "./certificate.css";

export function CertificatePage() {
  const { id = "" } = useParams();
  const certificate = useCertificate(id);
  const notFound = certificate.error instanceof ApiRequestError && certificate.error.status === 404;
  usePageTitle(
    certificate.data
      ? `Certificate ${certificate.data.id}: ${certificate.data.programTitle}`
      : notFound
        ? "No such certificate"
        : undefined,
  );

  if (certificate.isPending) {
    return (
      <section className="container section narrow">
        <p role="status">Checking the certificate...</p>
      </section>
    );
  }
  if (!certificate.data) {
    return (
      <section className="container section narrow">
        <h1>{notFound ? "No such certificate" : "Certificate"}</h1>
        {notFound ? (
          <p>
            Trading Academy has not issued a certificate with the number <code>{id}</code>. Check the number against the
            certificate, or ask its holder for the link.
          </p>
        ) : (
          <p role="alert" className="form-error">
            {certificate.error?.message}
          </p>
        )}
        <p>
          <Link to="/" className="button">
            Go to the home page
          </Link>
        </p>
      </section>
    );
  }
  return <CertificateView certificate={certificate.data} />;
}

function CertificateView({ certificate }: { certificate: PublicCertificate }) {
  const url = `${window.location.origin}/certificates/${certificate.id}`;
  const revoked = certificate.revokedAt !== null;
  return (
    <section className="container section certificate-page">
      {revoked ? (
        <div className="certificate-status certificate-status-revoked" role="status">
          <h1>Revoked certificate</h1>
          <p>
            This certificate was revoked on {formatCertificateDate(certificate.revokedAt ?? certificate.issuedAt)} and is no
            longer valid.
          </p>
        </div>
      ) : (
        <div className="certificate-status certificate-status-genuine" role="status">
          <h1>Genuine certificate</h1>
          <p>Trading Academy issued this certificate on {formatCertificateDate(certificate.issuedAt)}.</p>
        </div>
      )}

      {!revoked && <ShareActions url={url} certificate={certificate} />}

      <article className={`certificate${revoked ? " certificate-revoked" : ""}`} aria-label="Certificate">
        <p className="certificate-brand">Trading Academy</p>
        <p className="certificate-kind">Certificate of Completion</p>
        <p className="certificate-line">This certifies that</p>
        <p className="certificate-holder">
          {certificate.holderName || <span className="certificate-holder-removed">Name removed</span>}
        </p>
        <p className="certificate-line">has completed the</p>
        <p className="certificate-program">{certificate.programTitle}</p>
        <dl className="certificate-details">
          <div>
            <dt>Date issued</dt>
            <dd>
              <time dateTime={certificate.issuedAt}>{formatCertificateDate(certificate.issuedAt)}</time>
            </dd>
          </div>
          <div>
            <dt>Certificate number</dt>
            <dd>
              <code>{certificate.id}</code>
            </dd>
          </div>
        </dl>
        <p className="certificate-verify">Verify this certificate at {url}</p>
      </article>
    </section>
  );
}

function ShareActions({ url, certificate }: { url: string; certificate: PublicCertificate }) {
  const shareText = `${certificate.holderName || "A learner"} completed the ${certificate.programTitle} at Trading Academy.`;
  const canShare = typeof navigator.share === "function";

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(url);
      notify.success("Link copied.");
    } catch {
      notify.error("The link could not be copied: select it at the foot of the certificate and copy it.");
    }
  }

  async function share() {
    try {
      await navigator.share({ title: `Trading Academy certificate ${certificate.id}`, text: shareText, url });
    } catch {
      // Closed by the person, or refused: nothing to say.
    }
  }

  return (
    <p className="certificate-actions">
      <button type="button" className="button" onClick={() => window.print()}>
        Print certificate
      </button>
      <button type="button" className="button button-secondary" onClick={() => void copyLink()}>
        Copy link
      </button>
      <a
        className="button button-secondary"
        href={`https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        Share on LinkedIn<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
      {canShare && (
        <button type="button" className="button button-secondary" onClick={() => void share()}>
          Share...
        </button>
      )}
    </p>
  );
}
