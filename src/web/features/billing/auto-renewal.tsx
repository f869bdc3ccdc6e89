// Automatic renewal on the subscription page's status card (docs/subscriptions.md, "Automatic
// renewal"): off by default; a card payer turns it on by a checkbox whose label is the consent,
// naming the amount and the day; a failed automatic charge is said in words.
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { AUTO_RENEWAL_MESSAGES, type AutoRenewal } from "../../../shared/contracts/billing.ts";
import { ApiRequestError, GENERIC_ERROR_MESSAGE } from "../../lib/api.ts";
import { notify } from "../../ui/toast.tsx";
import { autoRenewalQuery, setAutoRenewal, useAutoRenewal } from "./billing-api.ts";
import { formatDate } from "./plan-details.ts";

export function AutoRenewalSetting() {
  const state = useAutoRenewal();
  const queryClient = useQueryClient();
  // The choice being saved shows at once; the server's answer replaces it.
  const [saving, setSaving] = useState<boolean | null>(null);
  const consentId = useId();
  const data = state.data;
  if (!data) return null;

  async function change(enabled: boolean) {
    setSaving(enabled);
    try {
      const next = await setAutoRenewal(enabled);
      queryClient.setQueryData(autoRenewalQuery.queryKey, next);
      notify.success(next.enabled ? AUTO_RENEWAL_MESSAGES.turnedOn : AUTO_RENEWAL_MESSAGES.turnedOff);
    } catch (error) {
      notify.error(error instanceof ApiRequestError ? error.message : GENERIC_ERROR_MESSAGE);
    } finally {
      setSaving(null);
    }
  }

  return (
    <div className="auto-renewal">
      <h3>Automatic renewal</h3>
      <LastFailure failure={data.lastFailure} />
      {data.available && data.consent ? (
        <>
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={saving ?? data.enabled}
              disabled={saving !== null}
              aria-describedby={consentId}
              onChange={(event) => void change(event.target.checked)}
            />
            Renew my plan automatically by card
          </label>
          <p id={consentId} className="auto-renewal-consent">
            {data.consent}
          </p>
        </>
      ) : (
        <p className="auto-renewal-consent">{data.unavailableReason ?? AUTO_RENEWAL_MESSAGES.noPrice}</p>
      )}
    </div>
  );
}

function LastFailure({ failure }: { failure: AutoRenewal["lastFailure"] }) {
  if (!failure) return null;
  return (
    <p role="alert" className="form-error">
      {`Your automatic renewal on ${formatDate(failure.at)} did not go through. ${failure.message} `}
      {failure.retryTomorrow
        ? "We will try once more tomorrow; you can also renew now below."
        : "We will not try again: renew below to keep your access."}
    </p>
  );
}
