import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** `alertdialog` for messages that interrupt the user and need an answer. */
  role?: 'dialog' | 'alertdialog';
  /** `wide` for a dialog that shows a page of its own (a mail's preview). */
  width?: 'default' | 'wide';
};

export function Modal({ open, onClose, title, children, role = 'dialog', width = 'default' }: ModalProps) {
  return (
    <Dialog open={open} onClose={onClose} role={role} className="fixed inset-0 z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-950/60" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          className={cn(
            'max-h-full w-full space-y-4 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl',
            width === 'wide' ? 'max-w-2xl' : 'max-w-md',
          )}
        >
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          {children}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
