// Each tool call of one reply needs an id of its own: results go back to the
// model by id, so two calls under one id (or none) would share one result and
// the first would be lost.

/** The server's id, else `call_<index>`; a copy of an id already taken gets `_2`, `_3`, … */
export function uniqueToolCallId(wireId: string | undefined, index: number, taken: (id: string) => boolean): string {
  const base = wireId || `call_${index}`;
  let id = base;
  for (let copy = 2; taken(id); copy++) id = `${base}_${copy}`;
  return id;
}
