import { toast, type TypeOptions } from 'react-toastify';

/** Shows a toast; spec §9 makes "info" the type of any toast that does not name one. */
export function notify(message: string, type: TypeOptions = 'info') {
  return toast(message, { type });
}
