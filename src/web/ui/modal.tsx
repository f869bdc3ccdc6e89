// A modal on the native <dialog>: the browser traps focus, Escape closes it and focus returns to
// the control that opened it. Rendered only while open, so a closed modal costs nothing.
import { useId, useLayoutEffect, useRef, type ReactNode } from "react";
import "./modal.css";

type ModalProps = {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** The buttons at the bottom (Save, Close...). */
  actions?: ReactNode;
  wide?: boolean;
};

export function Modal({ title, onClose, children, actions, wide = false }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  // A layout effect: close() must run while the dialog is still in the page, or the browser
  // cannot hand focus back to the control that opened it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first control (the close button) unless one carries the autofocus
      // attribute, which React never renders: the control marked data-autofocus takes it instead.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className={wide ? "modal modal-wide" : "modal"}
      aria-labelledby={titleId}
      // Escape (the dialog's own "cancel") closes through the owner, so its state stays true.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="modal-close" aria-label="Close dialog" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="modal-body">{children}</div>
      {actions && <div className="modal-actions">{actions}</div>}
    </dialog>
  );
}

type ConfirmProps = {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
};

/** A yes-or-no question, with the dangerous answer styled as such and Cancel focused first. */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onCancel, busy = false }: ConfirmProps) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onCancel} data-autofocus>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <p>{message}</p>
    </Modal>
  );
}
