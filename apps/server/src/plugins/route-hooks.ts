/** A route's hooks of one kind, as a list an onRoute hook may extend: hooks only where they apply. */
export function hooksOf<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
