import { ComingSoonPage } from '../../../components/layout/page';

export function CheckoutRoute() {
  return <ComingSoonPage title="Checkout" />;
}
