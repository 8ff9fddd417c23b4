import { ComingSoonPage } from '../../../components/layout/page';

export function PurchaseConfirmationRoute() {
  return <ComingSoonPage title="Purchase Confirmation" />;
}
