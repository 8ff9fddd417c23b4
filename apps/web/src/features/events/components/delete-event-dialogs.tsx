import type { Event } from '@stagedoor/shared/events';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';

type ConfirmDeleteProps = {
  /** The event waiting for an answer; the dialog is closed without one. */
  event: Event | null;
  isDeleting: boolean;
  onCancel: () => void;
  onConfirm: (event: Event) => void;
};

export function ConfirmDeleteDialog({ event, isDeleting, onCancel, onConfirm }: ConfirmDeleteProps) {
  return (
    <Modal open={event !== null} onClose={onCancel} title="Delete Event">
      <p className="text-slate-700">{`Are you sure you want to delete the event "${event?.name ?? ''}"?`}</p>
      <p className="text-sm text-slate-500">This action cannot be undone.</p>
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="danger" disabled={isDeleting} onClick={() => event && onConfirm(event)}>
          {isDeleting ? 'Deleting...' : 'Delete'}
        </Button>
      </div>
    </Modal>
  );
}

/** The Error modal of spec §2: the server's reason for a failed delete, or a failed load. */
export function ErrorDialog({ message, onClose }: { message: string | null; onClose: () => void }) {
  return (
    <Modal open={message !== null} onClose={onClose} title="Error">
      <p className="text-slate-700">{message}</p>
      <div className="flex justify-end">
        <Button onClick={onClose}>OK</Button>
      </div>
    </Modal>
  );
}
