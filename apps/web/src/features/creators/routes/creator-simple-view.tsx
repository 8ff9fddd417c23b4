import { ComingSoonPage } from '../../../components/layout/page';

export function CreatorSimpleViewRoute() {
  return <ComingSoonPage title="Creator" />;
}
