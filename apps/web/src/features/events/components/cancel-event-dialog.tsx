import type { Event } from '@stagedoor/shared/events';
import { CANCELLATION_PENALTY_BPS, PENALTY_NOTICE_HOURS } from '@stagedoor/shared/money';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatMoney, formatRate } from '../../../lib/format';

type ConfirmCancelProps = {
  /** The event waiting for an answer; the dialog is closed without one. */
  event: Event | null;
  /** Less than PENALTY_NOTICE_HOURS before the start: the Terms' penalty applies. */
  isLate: boolean;
  /** The penalty in dollars, once the event's sales are known. */
  penalty?: number;
  isCancelling: boolean;
  onKeep: () => void;
  onConfirm: (event: Event) => void;
};

export function ConfirmCancelDialog({
  event,
  isLate,
  penalty,
  isCancelling,
  onKeep,
  onConfirm,
}: ConfirmCancelProps) {
  const amount = penalty === undefined ? '' : ` (${formatMoney(penalty)})`;
  return (
    <Modal open={event !== null} onClose={onKeep} title="Cancel Event">
      <p className="text-slate-700">
        {`Cancel "${event?.name ?? ''}"? Every buyer will be refunded in full and the event stops selling and streaming.`}
      </p>
      {isLate ? (
        <p className="text-sm font-medium text-red-700">
          {`It starts in less than ${PENALTY_NOTICE_HOURS} hours, so a penalty of ${formatRate(CANCELLATION_PENALTY_BPS)} of its ticket sales${amount} will be charged to your balance.`}
        </p>
      ) : null}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onKeep}>
          Keep Event
        </Button>
        <Button variant="danger" disabled={isCancelling} onClick={() => event && onConfirm(event)}>
          {isCancelling ? 'Cancelling...' : 'Cancel Event'}
        </Button>
      </div>
    </Modal>
  );
}
