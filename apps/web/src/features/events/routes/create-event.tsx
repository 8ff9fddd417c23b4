import { Page } from '../../../components/layout/page';
import { EventForm } from '../components/event-form';

export function CreateEventRoute() {
  return (
    <Page title="Create Event" description="Publish a paid live event for your fans." width="narrow">
      <EventForm />
    </Page>
  );
}
