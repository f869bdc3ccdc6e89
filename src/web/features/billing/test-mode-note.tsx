/** Shown while payments go to the built-in Paystack simulator, so nobody mistakes it for a real charge. */
export function TestModeNote({ testMode }: { testMode: boolean | undefined }) {
  if (!testMode) return null;
  return (
    <p className="test-mode-note">
      <strong>Test mode:</strong> no real money moves.
    </p>
  );
}
