/** The specification's full-screen loading animation: shown only while the session is re-read on the client. */
export function FullScreenLoader({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-white/90 backdrop-blur-sm"
    >
      <span
        className="size-12 animate-spin rounded-full border-4 border-indigo-200 border-t-indigo-600"
        aria-hidden="true"
      />
      <span className="text-base font-semibold text-slate-800">{label}</span>
    </div>
  );
}
