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

/** Asks before something of the event is deleted for good, in the words of what is deleted. */
function ConfirmDeletion({
  event,
  isDeleting,
  onCancel,
  onConfirm,
  title,
  question,
  keep,
  remove,
}: ConfirmDeleteProps & { title: string; question: string; keep: string; remove: string }) {
  return (
    <Modal open={event !== null} onClose={onCancel} title={title}>
      <p className="text-slate-700">{question}</p>
      <p className="text-sm text-slate-500">This action cannot be undone.</p>
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel}>
          {keep}
        </Button>
        <Button variant="danger" disabled={isDeleting} onClick={() => event && onConfirm(event)}>
          {isDeleting ? 'Deleting...' : remove}
        </Button>
      </div>
    </Modal>
  );
}

export function ConfirmDeleteDialog(props: ConfirmDeleteProps) {
  return (
    <ConfirmDeletion
      {...props}
      title="Delete Event"
      question={`Are you sure you want to delete the event "${props.event?.name ?? ''}"?`}
      keep="Cancel"
      remove="Delete"
    />
  );
}

/** Asks before the replay of an event's show is deleted: its ticket holders lose it. */
export function ConfirmDeleteReplayDialog(props: ConfirmDeleteProps) {
  return (
    <ConfirmDeletion
      {...props}
      title="Delete the replay?"
      question={`The replay of "${props.event?.name ?? ''}" will be deleted, and its ticket holders will no longer be able to watch it.`}
      keep="Keep the replay"
      remove="Delete replay"
    />
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
