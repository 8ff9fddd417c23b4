import { ComingSoonPage } from '../../../components/layout/page';

export function EditEventRoute() {
  return <ComingSoonPage title="Edit Event" />;
}
