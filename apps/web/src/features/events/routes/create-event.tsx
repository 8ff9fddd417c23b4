import { Page } from '../../../components/layout/page';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { EventForm } from '../components/event-form';

export function CreateEventRoute() {
  useDocumentTitle('Create Event');
  return (
    <Page title="Create Event" description="Publish a paid live event for your fans." width="narrow">
      <EventForm />
    </Page>
  );
}
