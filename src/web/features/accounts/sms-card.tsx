// The SMS part of /account (docs/product.md, "SMS"): a Ghanaian mobile number, confirmed by a
// 6-digit code (and another number's code, which replaces it once given), and what comes by SMS.
// The server checks the number and the code and says why it refused; a code is never said to be
// sent before Hubtel accepted it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import {
  formatGhanaPhone,
  SMS_ENDPOINTS,
  SMS_PREFERENCE_LABELS,
  SMS_PREFERENCES,
  type SmsPreferences,
  type SmsSettings,
} from "../../../shared/contracts/sms.ts";
import type { Answer } from "../../../shared/contracts/endpoint.ts";
import { call } from "../../lib/api.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { TextField } from "../../ui/text-field.tsx";
import "./sms-card.css";

const smsKey = ["account", "sms"] as const;

function useSmsSettings() {
  return useQuery({
    queryKey: smsKey,
    queryFn: () => call(SMS_ENDPOINTS.settings, {}),
    // While the code is on its way, its state is asked for again: "sent" once Hubtel accepted it.
    refetchInterval: (query) => (query.state.data?.settings.codeStatus === "sending" ? 3_000 : false),
  });
}

/** A change of the settings: a call of one of SMS_ENDPOINTS' changes, each answered with the settings as they now are. */
type SmsChange = () => Promise<Answer<typeof SMS_ENDPOINTS.settings>>;

const sendCode = (phone: string): SmsChange => () => call(SMS_ENDPOINTS.sendCode, { body: { phone } });
const confirmCode = (code: string): SmsChange => () => call(SMS_ENDPOINTS.confirm, { body: { code } });
const savePreferences = (preferences: SmsPreferences): SmsChange => () => call(SMS_ENDPOINTS.savePreferences, { body: preferences });
const removeNumber: SmsChange = () => call(SMS_ENDPOINTS.removeNumber, {});

function useSmsChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: SmsChange) => change(),
    onSuccess: (answer) => queryClient.setQueryData(smsKey, { settings: answer.settings }),
  });
}

export function SmsCard() {
  const settings = useSmsSettings();
  const change = useSmsChange();
  // A change's answer is put in the query, which the code's state then keeps up to date.
  const current = settings.data?.settings;
  return (
    <section className="card stack account-card" aria-labelledby="account-sms">
      <h2 id="account-sms">Text messages (SMS)</h2>
      {!current ? (
        <FormMessages error={settings.error?.message} info={settings.isPending ? "Loading..." : undefined} />
      ) : current.confirmed && current.phone ? (
        <ConfirmedNumber settings={current} phone={current.phone} change={change} />
      ) : current.phone ? (
        <PendingNumber settings={current} phone={current.phone} change={change} />
      ) : (
        <AddNumber change={change} />
      )}
    </section>
  );
}

type ChangeProps = { change: ReturnType<typeof useSmsChange> };

const PHONE_FIELD = {
  label: "Mobile number",
  hint: "Such as 024 123 4567 or +233 24 123 4567",
  type: "tel",
  inputMode: "tel",
  autoComplete: "tel",
} as const;
const CODE_FIELD = { label: "6-digit code", inputMode: "numeric", autoComplete: "one-time-code", maxLength: 6 } as const;

/** A form of one field, its value sent by `changeOf`. */
function useOneFieldForm(change: ChangeProps["change"], changeOf: (value: string) => SmsChange) {
  const [value, setValue] = useState("");
  return {
    input: { value, onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(event.target.value) },
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      change.mutate(changeOf(value));
    },
  };
}

function AddNumber({ change }: ChangeProps) {
  const { input, onSubmit } = useOneFieldForm(change, sendCode);
  return (
    <>
      <p>
        Add a Ghanaian mobile number to get renewal reminders, receipts, cohort admissions and mentorship confirmations by
        SMS as well as by email. We send a code to confirm it.
      </p>
      <form className="form" noValidate onSubmit={onSubmit}>
        <TextField {...PHONE_FIELD} {...input} />
        {/* Shown here, the answer can only be the removal's. */}
        <FormMessages error={change.error?.message} success={change.data?.message} />
        <button type="submit" className="button" disabled={change.isPending}>
          {change.isPending ? "Sending..." : "Send code"}
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

function PendingNumber({ settings, phone, change }: ChangeProps & { settings: SmsSettings; phone: string }) {
  return (
    <CodeForm
      change={change}
      codeTo={phone}
      confirmLabel="Confirm number"
      back={{ label: "Use another number", change: removeNumber }}
      messages
    >
      Confirm <strong>{formatGhanaPhone(phone)}</strong> with the 6-digit code we send to it by SMS.{" "}
      {settings.codeStatus ? CODE_STATUS_TEXT[settings.codeStatus] : ""}
    </CodeForm>
  );
}

/**
 * The 6-digit code sent to `codeTo`, with Confirm, Send a new code, and the way `back`; `children`
 * say what the code confirms. With `messages`, the change's answer shows in the form.
 */
function CodeForm(props: ChangeProps & { codeTo: string; confirmLabel: string; back: { label: string; change: SmsChange }; messages?: boolean; children: ReactNode }) {
  const { change, codeTo, back } = props;
  const { input, onSubmit } = useOneFieldForm(change, confirmCode);
  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <p>{props.children}</p>
      <TextField {...CODE_FIELD} {...input} />
      {props.messages && <FormMessages error={change.error?.message} success={change.data?.message} />}
      <div className="sms-actions">
        <button type="submit" className="button" disabled={change.isPending}>
          {change.isPending ? "Checking..." : props.confirmLabel}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={change.isPending}
          onClick={() => change.mutate(sendCode(codeTo))}
        >
          Send a new code
        </button>
        <button type="button" className="button button-secondary" disabled={change.isPending} onClick={() => change.mutate(back.change)}>
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
function ChangeNumber({ change }: ChangeProps) {
  const { input, onSubmit } = useOneFieldForm(change, sendCode);
  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <TextField {...PHONE_FIELD} label="New mobile number" {...input} />
      <button type="submit" className="button button-secondary" disabled={change.isPending}>
        {change.isPending ? "Sending..." : "Send code to new number"}
      </button>
    </form>
  );
}

function NewNumberCode({ settings, phone, pendingPhone, change }: ChangeProps & { settings: SmsSettings; phone: string; pendingPhone: string }) {
  return (
    <CodeForm
      change={change}
      codeTo={pendingPhone}
      confirmLabel="Confirm new number"
      back={{ label: `Keep ${formatGhanaPhone(phone)}`, change: sendCode(phone) }}
    >
      To have SMS sent to <strong>{formatGhanaPhone(pendingPhone)}</strong> instead, enter the 6-digit code we send to it.
      Until then they keep coming to {formatGhanaPhone(phone)}. {settings.codeStatus ? CODE_STATUS_TEXT[settings.codeStatus] : ""}
    </CodeForm>
  );
}

function ConfirmedNumber({ settings, phone, change }: ChangeProps & { settings: SmsSettings; phone: string }) {
  // The box shows its new state at once; the server's answer (or refusal) follows under it.
  const [preferences, setPreferences] = useState(settings.preferences);
  const save = (next: SmsPreferences) => {
    setPreferences(next);
    change.mutate(savePreferences(next));
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
        <NewNumberCode settings={settings} phone={phone} pendingPhone={settings.pendingPhone} change={change} />
      ) : (
        <ChangeNumber change={change} />
      )}
      <FormMessages error={change.error?.message} success={change.data?.message} />
      <button
        type="button"
        className="button button-secondary"
        disabled={change.isPending}
        onClick={() => change.mutate(removeNumber)}
      >
        Turn off SMS and remove my number
      </button>
    </>
  );
}
