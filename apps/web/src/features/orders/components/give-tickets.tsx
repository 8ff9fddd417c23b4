import { zodResolver } from '@hookform/resolvers/zod';
import type { Order } from '@stagedoor/shared/orders';
import { ZTransferRequest, type TransferRequest } from '@stagedoor/shared/orders';
import { counted } from '@stagedoor/shared/words';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { notify } from '../../../lib/notify';
import { useGiveTickets } from '../api/orders';

/**
 * "Give" on a ticket of a show still to come: the whole order goes to a friend's email address, who is
 * mailed a link that opens the show. It is no longer the giver's the moment it is given.
 */
export function GiveTickets({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  const give = useGiveTickets();
  const form = useForm<TransferRequest>({
    resolver: zodResolver(ZTransferRequest),
    defaultValues: { email: '' },
  });
  const {
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = form;
  const field = formFields(form);
  const tickets = counted(order.quantity, 'ticket');

  const close = () => {
    setOpen(false);
    reset();
  };
  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await give.mutateAsync({ orderId: order.id, email });
      notify(`${tickets} given to ${email}`, 'success');
      close();
    } catch (error) {
      reportSubmitError(error, { setError, fields: ['email'], fallback: 'The tickets could not be given' });
    }
  });

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Give
      </Button>
      <Modal open={open} onClose={close} title={`Give ${tickets} to ${order.event.name}`}>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <p className="text-sm text-slate-600">
            Your friend gets an email with a link that opens the show. The {tickets} are theirs from then on:
            you can no longer watch with {order.quantity === 1 ? 'it' : 'them'}.
          </p>
          <Input label="Friend's email" type="email" autoComplete="off" {...field('email')} />
          <div className="flex justify-end gap-3">
            <Button type="button" variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Giving...' : `Give ${tickets}`}
            </Button>
          </div>
        </form>
      </Modal>
    </>
  );
}
