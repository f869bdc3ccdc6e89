import { useMutation } from "@tanstack/react-query";
import {
  contactResponseSchema,
  type ContactRequest,
} from "../../../shared/contracts/contact.ts";
import { apiRequest } from "../../lib/api.ts";

export function useSendContactMessage() {
  return useMutation({
    mutationFn: (message: ContactRequest) =>
      apiRequest("/api/contact", contactResponseSchema, { method: "POST", body: message }),
  });
}
