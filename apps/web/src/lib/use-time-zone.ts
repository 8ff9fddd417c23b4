import { browserTimeZone } from './dates';
import { useSession } from './session';

/** The zone dates are shown in: the signed-in account's, else the browser's. */
export function useTimeZone(): string {
  const { user } = useSession();
  return user?.timeZone ?? browserTimeZone();
}
