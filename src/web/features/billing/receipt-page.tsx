// /subscription/receipts/:reference (docs/product.md, "Receipt"): the receipt of one of the
// learner's paid payments, laid out to print (or save as a PDF) without the site around it.
import { Link, useParams } from "react-router";
import { formatGhs, priceAtRateText } from "../../../shared/billing.ts";
import { BILLING_MESSAGES, paymentMethodText, paymentPurpose, type Receipt } from "../../../shared/contracts/billing.ts";
import { ApiRequestError } from "../../lib/api.ts";
import { useSiteConfig } from "../../lib/site-config.ts";
import { useReceipt } from "./billing-api.ts";
import { PaymentStatus } from "./payment-history.tsx";
import { formatDate } from "./plan-details.ts";
import "./payment-history.css";
import "./receipt.css";

export function ReceiptPage() {
  const { reference = "" } = useParams();
  const receipt = useReceipt(reference);

  return (
    <section className="container section receipt-page">
      <p className="receipt-actions">
        <Link to="/subscription" className="button button-secondary">
          Back to Subscription
        </Link>
        {receipt.data && (
          <button type="button" className="button" onClick={() => window.print()}>
            Print receipt
          </button>
        )}
      </p>
      {receipt.isPending ? (
        <p role="status">Loading the receipt...</p>
      ) : receipt.data ? (
        <ReceiptCard receipt={receipt.data} />
      ) : (
        <>
          <h1>Receipt</h1>
          <p role="alert" className="form-error">
            {receipt.error instanceof ApiRequestError && receipt.error.status === 404
              ? BILLING_MESSAGES.receiptNotFound
              : receipt.error?.message}
          </p>
        </>
      )}
    </section>
  );
}

/** What the payment bought and for when: the month's dates, or the waitlist's cohort. */
function periodText(receipt: Receipt): string | null {
  if (receipt.periodStart && receipt.periodEnd) return `${formatDate(receipt.periodStart)} to ${formatDate(receipt.periodEnd)}`;
  return receipt.cohort ? `${receipt.cohort} cohort` : null;
}

function ReceiptCard({ receipt }: { receipt: Receipt }) {
  const site = useSiteConfig();
  const paidOn = receipt.paidAt ?? receipt.createdAt;
  const given = receipt.refunds.reduce((sum, refund) => sum + refund.amountMinor, 0);
  const { business } = receipt;
  const period = periodText(receipt);
  return (
    <article className="card receipt" aria-labelledby="receipt-title">
      <header className="receipt-head">
        <div>
          <p className="receipt-brand">{business.name}</p>
          {(business.address || business.taxNumber) && (
            <p className="receipt-business">
              {business.address && <span>{business.address}</span>}
              {business.taxNumber && <span>Tax number: {business.taxNumber}</span>}
            </p>
          )}
          <h1 id="receipt-title">Payment receipt</h1>
        </div>
        <div className="receipt-state">
          <PaymentStatus payment={receipt} />
        </div>
      </header>

      <dl className="receipt-details">
        <div>
          <dt>Receipt number (Paystack reference)</dt>
          <dd>
            <code>{receipt.reference}</code>
          </dd>
        </div>
        <div>
          <dt>Date paid</dt>
          <dd>
            <time dateTime={paidOn}>{formatDate(paidOn)}</time>
          </dd>
        </div>
        <div>
          <dt>Billed to</dt>
          <dd>
            {receipt.name && <span className="receipt-name">{receipt.name}</span>}
            <span className="receipt-email">{receipt.email}</span>
          </dd>
        </div>
        <div>
          <dt>Paid with</dt>
          <dd>{receipt.method ? paymentMethodText(receipt.method) : "Paystack"}</dd>
        </div>
      </dl>

      <table className="receipt-lines">
        <caption className="visually-hidden">What was paid</caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col" className="cell-amount">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              {paymentPurpose(receipt.kind, receipt.plan)}
              {period && <span className="receipt-price">{period}</span>}
              <span className="receipt-price">{priceAtRateText(receipt.priceUsdCents, receipt.exchangeRate)}</span>
            </td>
            <td className="cell-amount">{formatGhs(receipt.amountMinor)}</td>
          </tr>
          {receipt.refunds.map((refund, index) => (
            <tr key={`${refund.createdAt}-${index}`}>
              <td>
                Refund of {formatDate(refund.processedAt ?? refund.createdAt)}
                {refund.status === "pending" && <span className="receipt-price">Being processed by Paystack</span>}
              </td>
              <td className="cell-amount">−{formatGhs(refund.amountMinor)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{given > 0 ? "Total after refunds" : "Total paid"}</th>
            <td className="cell-amount">{formatGhs(receipt.amountMinor - given)}</td>
          </tr>
        </tfoot>
      </table>

      <p className="receipt-note">
        Paid in Ghana cedis ({receipt.currency}) through Paystack.
        {site.data && ` Questions about this payment? Write to ${site.data.supportEmail} with the receipt number.`}
      </p>
    </article>
  );
}
