// When a History entry was last used, short enough to sit beside its title in
// a narrow sidebar: "just now", "5 min", "3 h", "yesterday", a weekday within
// the week, else the date. The full date and time stay in the tooltip.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function startOfDay(time: number): number {
  const day = new Date(time);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

export function shortWhen(updatedAt: number, now: number, locale?: string): string {
  const ago = now - updatedAt;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min`;
  const days = Math.round((startOfDay(now) - startOfDay(updatedAt)) / (24 * HOUR));
  if (days === 0) return `${Math.floor(ago / HOUR)} h`;
  if (days === 1) return 'yesterday';
  const date = new Date(updatedAt);
  if (days < 7) return date.toLocaleDateString(locale, { weekday: 'short' });
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString(locale, sameYear ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short', day: 'numeric' });
}
