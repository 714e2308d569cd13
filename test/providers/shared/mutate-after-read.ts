/** What `mutateAfterRead` writes over every member it can. */
export const MUTATED = 'mutated after read';

/**
 * Writes over every object and array reachable from `value`, as a consumer that edits what it was
 * given would: each member is replaced, a member is added, arrays grow. A frozen container is left
 * as it is (`Reflect.set` reports the refused write instead of throwing): values shared between
 * reads are allowed when they are immutable. The containers are gathered before any is written,
 * so a replaced member's own members are reached too.
 */
export function mutateAfterRead(value: unknown): void {
  const containers: object[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    containers.push(node);
    for (const key of Object.keys(node)) pending.push((node as Record<string, unknown>)[key]);
  }
  for (const node of containers) {
    for (const key of Object.keys(node)) Reflect.set(node, key, MUTATED);
    Reflect.set(node, Array.isArray(node) ? String(node.length) : 'addedAfterRead', MUTATED);
  }
}
