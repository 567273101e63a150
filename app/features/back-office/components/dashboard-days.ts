/** "Nov 3" for a UTC day (YYYY-MM-DD), the same on the server and in every browser. */
export const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
