// Forwards a contact message to an outside webhook (a spreadsheet, a help desk) as JSON.

export type ContactMessage = { name: string; email: string; message: string };

export async function forwardContactMessage(url: string, message: ContactMessage): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) {
    throw new Error(`Contact webhook answered ${response.status}`);
  }
}
