import { ComingSoonPage } from '../../../components/layout/page';

export function CreatorProfileRoute() {
  return <ComingSoonPage title="Creator Profile" />;
}
