// The SMS part of /account (docs/product.md, "SMS"): a Ghanaian mobile number, confirmed by a
// 6-digit code (and another number's code, which replaces it once given), and what comes by SMS.
// The server checks the number and the code and says why it refused; a code is never said to be
// sent before Hubtel accepted it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import {
  formatGhanaPhone,
  SMS_PREFERENCE_LABELS,
  SMS_PREFERENCES,
  smsSettingsResponseSchema,
  type SmsPreferences,
  type SmsSettings,
} from "../../../shared/contracts/sms.ts";
import { apiRequest } from "../../lib/api.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { TextField } from "../../ui/text-field.tsx";
import "./sms-card.css";

const smsKey = ["account", "sms"] as const;

function useSmsSettings() {
  return useQuery({
    queryKey: smsKey,
    queryFn: () => apiRequest("/api/accounts/sms", smsSettingsResponseSchema),
    // While the code is on its way, its state is asked for again: "sent" once Hubtel accepted it.
    refetchInterval: (query) => (query.state.data?.settings.codeStatus === "sending" ? 3_000 : false),
  });
}

type SmsCall = { path: string; method: "POST" | "PUT" | "DELETE"; body?: unknown };

function useSmsCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ path, method, body }: SmsCall) => apiRequest(path, smsSettingsResponseSchema, { method, body }),
    onSuccess: (answer) => queryClient.setQueryData(smsKey, { settings: answer.settings }),
  });
}

export function SmsCard() {
  const settings = useSmsSettings();
  const call = useSmsCall();
  // A call's answer is put in the query, which the code's state then keeps up to date.
  const current = settings.data?.settings;
  return (
    <section className="card stack account-card" aria-labelledby="account-sms">
      <h2 id="account-sms">Text messages (SMS)</h2>
      {!current ? (
        <FormMessages error={settings.error?.message} info={settings.isPending ? "Loading..." : undefined} />
      ) : current.confirmed && current.phone ? (
        <ConfirmedNumber settings={current} phone={current.phone} call={call} />
      ) : current.phone ? (
        <PendingNumber settings={current} phone={current.phone} call={call} />
      ) : (
        <AddNumber call={call} />
      )}
    </section>
  );
}

type CallProps = { call: ReturnType<typeof useSmsCall> };

const PHONE_FIELD = {
  label: "Mobile number",
  hint: "Such as 024 123 4567 or +233 24 123 4567",
  type: "tel",
  inputMode: "tel",
  autoComplete: "tel",
} as const;
const CODE_FIELD = { label: "6-digit code", inputMode: "numeric", autoComplete: "one-time-code", maxLength: 6 } as const;

/** A form of one field, posted to `path` as `{ [name]: value }`. */
function useOneFieldForm(call: CallProps["call"], path: string, name: "phone" | "code") {
  const [value, setValue] = useState("");
  return {
    input: { value, onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(event.target.value) },
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      call.mutate({ path, method: "POST", body: { [name]: value } });
    },
  };
}

function AddNumber({ call }: CallProps) {
  const { input, onSubmit } = useOneFieldForm(call, "/api/accounts/sms/number", "phone");
  return (
    <>
      <p>
        Add a Ghanaian mobile number to get renewal reminders, receipts, cohort admissions and mentorship confirmations by
        SMS as well as by email. We send a code to confirm it.
      </p>
      <form className="form" noValidate onSubmit={onSubmit}>
        <TextField {...PHONE_FIELD} {...input} />
        {/* Shown here, the answer can only be the removal's. */}
        <FormMessages error={call.error?.message} success={call.data?.message} />
        <button type="submit" className="button" disabled={call.isPending}>
          {call.isPending ? "Sending..." : "Send code"}
        </button>
      </form>
    </>
  );
}

const CODE_STATUS_TEXT = {
  sending: "The code is on its way.",
  sent: "The code has been sent.",
  failing: "We could not send the code yet; we keep trying. You can also ask for a new code.",
} as const;

function PendingNumber({ settings, phone, call }: CallProps & { settings: SmsSettings; phone: string }) {
  return (
    <CodeForm
      call={call}
      codeTo={phone}
      confirmLabel="Confirm number"
      back={{ label: "Use another number", call: { path: "/api/accounts/sms/number", method: "DELETE" } }}
      messages
    >
      Confirm <strong>{formatGhanaPhone(phone)}</strong> with the 6-digit code we send to it by SMS.{" "}
      {settings.codeStatus ? CODE_STATUS_TEXT[settings.codeStatus] : ""}
    </CodeForm>
  );
}

/**
 * The 6-digit code sent to `codeTo`, with Confirm, Send a new code, and the way `back`; `children`
 * say what the code confirms. With `messages`, the call's answer shows in the form.
 */
function CodeForm(props: CallProps & { codeTo: string; confirmLabel: string; back: { label: string; call: SmsCall }; messages?: boolean; children: ReactNode }) {
  const { call, codeTo, back } = props;
  const { input, onSubmit } = useOneFieldForm(call, "/api/accounts/sms/confirm", "code");
  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <p>{props.children}</p>
      <TextField {...CODE_FIELD} {...input} />
      {props.messages && <FormMessages error={call.error?.message} success={call.data?.message} />}
      <div className="sms-actions">
        <button type="submit" className="button" disabled={call.isPending}>
          {call.isPending ? "Checking..." : props.confirmLabel}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={call.isPending}
          onClick={() => call.mutate({ path: "/api/accounts/sms/number", method: "POST", body: { phone: codeTo } })}
        >
          Send a new code
        </button>
        <button type="button" className="button button-secondary" disabled={call.isPending} onClick={() => call.mutate(back.call)}>
          {back.label}
        </button>
      </div>
    </form>
  );
}

/**
 * Another number for a confirmed one: the code goes to the new number, and SMS keep coming to the
 * confirmed one until the code is given (docs/product.md, "SMS").
 */
function ChangeNumber({ call }: CallProps) {
  const { input, onSubmit } = useOneFieldForm(call, "/api/accounts/sms/number", "phone");
  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <TextField {...PHONE_FIELD} label="New mobile number" {...input} />
      <button type="submit" className="button button-secondary" disabled={call.isPending}>
        {call.isPending ? "Sending..." : "Send code to new number"}
      </button>
    </form>
  );
}

function NewNumberCode({ settings, phone, pendingPhone, call }: CallProps & { settings: SmsSettings; phone: string; pendingPhone: string }) {
  return (
    <CodeForm
      call={call}
      codeTo={pendingPhone}
      confirmLabel="Confirm new number"
      back={{ label: `Keep ${formatGhanaPhone(phone)}`, call: { path: "/api/accounts/sms/number", method: "POST", body: { phone } } }}
    >
      To have SMS sent to <strong>{formatGhanaPhone(pendingPhone)}</strong> instead, enter the 6-digit code we send to it.
      Until then they keep coming to {formatGhanaPhone(phone)}. {settings.codeStatus ? CODE_STATUS_TEXT[settings.codeStatus] : ""}
    </CodeForm>
  );
}

function ConfirmedNumber({ settings, phone, call }: CallProps & { settings: SmsSettings; phone: string }) {
  // The box shows its new state at once; the server's answer (or refusal) follows under it.
  const [preferences, setPreferences] = useState(settings.preferences);
  const save = (next: SmsPreferences) => {
    setPreferences(next);
    call.mutate({ path: "/api/accounts/sms/preferences", method: "PUT", body: next });
  };
  return (
    <>
      <p>
        SMS go to <strong>{formatGhanaPhone(phone)}</strong>. Email still comes as before.
      </p>
      <fieldset className="sms-preferences">
        <legend>Send me by SMS</legend>
        {SMS_PREFERENCES.map((preference) => (
          <label key={preference} className="sms-checkbox">
            <input
              type="checkbox"
              checked={preferences[preference]}
              onChange={(event) => save({ ...preferences, [preference]: event.target.checked })}
            />
            {SMS_PREFERENCE_LABELS[preference]}
          </label>
        ))}
      </fieldset>
      {settings.pendingPhone ? (
        <NewNumberCode settings={settings} phone={phone} pendingPhone={settings.pendingPhone} call={call} />
      ) : (
        <ChangeNumber call={call} />
      )}
      <FormMessages error={call.error?.message} success={call.data?.message} />
      <button
        type="button"
        className="button button-secondary"
        disabled={call.isPending}
        onClick={() => call.mutate({ path: "/api/accounts/sms/number", method: "DELETE" })}
      >
        Turn off SMS and remove my number
      </button>
    </>
  );
}
