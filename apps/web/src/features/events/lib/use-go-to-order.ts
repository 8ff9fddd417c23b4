import type { Order } from '@stagedoor/shared/orders';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { notify } from '../../../lib/notify';

/**
 * Where a fan goes once their order is placed: a pending one is paid on the payment provider's page,
 * which sends them back to the confirmation after; a completed one goes to the confirmation at once.
 * The checkout's purchase and the waitlist's "Buy now" both end here.
 */
export function useGoToOrder(): (order: Order) => void {
  const navigate = useNavigate();
  return (order) => {
    if (order.checkoutUrl) {
      window.location.assign(order.checkoutUrl);
      return;
    }
    notify('Tickets purchased successfully!', 'success');
    navigate(paths.purchaseConfirmation(order.event.id, order.quantity, order.id));
  };
}
