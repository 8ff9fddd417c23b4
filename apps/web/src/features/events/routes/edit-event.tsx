import { useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { Card } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEventForEditing } from '../api/events';
import { EventForm } from '../components/event-form';
import { PromoCodesPanel } from '../components/promo-codes-panel';

export function EditEventRoute() {
  const { id = '' } = useParams();
  const event = useEventForEditing(id);
  useDocumentTitle(event.data ? `Edit · ${event.data.name}` : 'Edit Event');

  return (
    <Page title="Edit Event" width="narrow">
      {event.isPending ? (
        <Card role="status" className="p-10 text-center text-slate-600">
          Loading event details...
        </Card>
      ) : event.isError ? (
        <Card role="alert" className="p-10 text-center text-red-700">
          {errorMessage(event.error, 'Error fetching event details for editing')}
        </Card>
      ) : (
        <div className="space-y-8">
          <EventForm key={event.data.id} event={event.data} />
          <PromoCodesPanel event={event.data} />
        </div>
      )}
    </Page>
  );
}
