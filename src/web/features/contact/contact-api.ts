import { useMutation } from "@tanstack/react-query";
import { CONTACT_ENDPOINTS, type ContactRequest } from "../../../shared/contracts/contact.ts";
import { call } from "../../lib/api.ts";

export function useSendContactMessage() {
  return useMutation({
    mutationFn: (message: ContactRequest) => call(CONTACT_ENDPOINTS.send, { body: message }),
  });
}
