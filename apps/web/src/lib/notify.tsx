import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { ToastContainerProps, TypeOptions } from 'react-toastify';

/*
 * Toasts bring their library (react-toastify, about 10 KB of gzipped JavaScript) with the first one shown,
 * not with the first load. Until its container has mounted, the library queues the toasts it is given.
 */
const loadToasts = () => import('react-toastify');
const ToastContainer = lazy(() => loadToasts().then(({ ToastContainer }) => ({ default: ToastContainer })));

let wanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Shows a toast; spec §9 makes "info" the type of any toast that does not name one. */
export function notify(message: string, type: TypeOptions = 'info'): void {
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  void loadToasts().then(({ toast }) => toast(message, { type }));
}

/** Where toasts appear: mounted once the first one is asked for. */
export function Toasts(props: ToastContainerProps) {
  const shown = useSyncExternalStore(subscribe, () => wanted);
  return shown ? (
    <Suspense fallback={null}>
      <ToastContainer {...props} />
    </Suspense>
  ) : null;
}
