// A user's certificates in the admin console (docs/product.md, "Completion and certificates"): each
// with its public page, and Revoke with a reason, which the audit log records.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import {
  CERTIFICATE_ENDPOINTS,
  CERTIFICATE_MESSAGES,
  formatCertificateDate,
  type AdminCertificate,
} from "../../../../shared/contracts/certificates.ts";
import type { AdminUser } from "../../../../shared/contracts/admin.ts";
import { call } from "../../../lib/api.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { Modal } from "../../../ui/modal.tsx";
import { TextAreaField } from "../../../ui/text-field.tsx";
import { notify } from "../../../ui/toast.tsx";
import { ADMIN_KEY, refreshAdmin } from "../admin-api.ts";
import { UserLink } from "../user-link.tsx";
import "./certificates-modal.css";

function certificatesKey(userId: string) {
  return [...ADMIN_KEY, "users", userId, "certificates"];
}

function useUserCertificates(userId: string) {
  return useQuery({
    queryKey: certificatesKey(userId),
    queryFn: () => call(CERTIFICATE_ENDPOINTS.ofLearner, { params: { id: userId } }),
  });
}

function useRevokeCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      call(CERTIFICATE_ENDPOINTS.revoke, { params: { id }, body: { reason } }),
    onSuccess: (certificate) => notify.success(`Certificate ${certificate.id} revoked.`),
    onSettled: () => refreshAdmin(queryClient),
  });
}

type CertificatesModalProps = {
  user: Pick<AdminUser, "id" | "email">;
  onClose: () => void;
  /** Opened from somewhere else than the learner's own page: say whose page has the rest. */
  linkToLearner?: boolean;
};

export function CertificatesModal({ user, onClose, linkToLearner = true }: CertificatesModalProps) {
  const certificates = useUserCertificates(user.id);
  const list = certificates.data?.certificates ?? [];
  return (
    <Modal
      wide
      title={`Certificates of ${user.email}`}
      onClose={onClose}
      actions={
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      }
    >
      {linkToLearner && (
        <p className="muted">
          Everything about this learner is on their page: <UserLink userId={user.id} email={user.email} />
        </p>
      )}
      {certificates.isPending ? (
        <p role="status">Loading...</p>
      ) : certificates.isError ? (
        <p role="alert" className="form-error">
          {certificates.error.message}
        </p>
      ) : list.length === 0 ? (
        <p className="muted">No certificates yet.</p>
      ) : (
        <ul className="admin-certificates">
          {list.map((certificate) => (
            <CertificateItem key={certificate.id} certificate={certificate} />
          ))}
        </ul>
      )}
    </Modal>
  );
}

function CertificateItem({ certificate }: { certificate: AdminCertificate }) {
  const [revoking, setRevoking] = useState(false);
  return (
    <li className="admin-certificate">
      <p>
        <strong>{certificate.programTitle}</strong>, issued {formatCertificateDate(certificate.issuedAt)}:{" "}
        <Link to={`/certificates/${certificate.id}`} target="_blank" rel="noopener">
          {certificate.id}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </Link>
      </p>
      {certificate.revokedAt ? (
        <p className="admin-certificate-revoked">
          Revoked on {formatCertificateDate(certificate.revokedAt)}: {certificate.revokeReason}
        </p>
      ) : revoking ? (
        <RevokeForm certificate={certificate} onDone={() => setRevoking(false)} />
      ) : (
        <button type="button" className="button button-secondary button-small" onClick={() => setRevoking(true)}>
          Revoke<span className="visually-hidden"> certificate {certificate.id}</span>
        </button>
      )}
    </li>
  );
}

function RevokeForm({ certificate, onDone }: { certificate: AdminCertificate; onDone: () => void }) {
  const revoke = useRevokeCertificate();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      className="form admin-certificate-revoke"
      noValidate
      aria-label={`Revoke certificate ${certificate.id}`}
      onSubmit={(event) => {
        event.preventDefault();
        const text = reason.trim();
        if (text === "") {
          setError(CERTIFICATE_MESSAGES.reasonRequired);
          return;
        }
        revoke.mutate({ id: certificate.id, reason: text }, { onSuccess: onDone, onError: (e) => setError(e.message) });
      }}
    >
      <TextAreaField
        label="Reason for revoking"
        hint="Kept in the audit log. The public page then says the certificate is revoked."
        rows={2}
        maxLength={500}
        value={reason}
        autoFocus
        onChange={(event) => setReason(event.target.value)}
      />
      <FormMessages error={error} />
      <div className="admin-certificate-actions">
        <button type="submit" className="button button-small" aria-busy={revoke.isPending || undefined}>
          Revoke certificate
        </button>
        <button type="button" className="button button-secondary button-small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
