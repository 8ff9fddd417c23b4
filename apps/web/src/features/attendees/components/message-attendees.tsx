import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_BODY_MAX_LENGTH,
  MESSAGE_SUBJECT_MAX_LENGTH,
  MESSAGES_PER_EVENT_PER_HOUR,
  ZAttendeeMessageRequest,
  type AttendeeMessagePreview,
  type AttendeeMessageRequest,
} from '@stagedoor/shared/attendees';
import { counted } from '@stagedoor/shared/words';
import { useReducer } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Input, Textarea } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { Notice } from '../../../components/ui/notice';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { notify } from '../../../lib/notify';
import { useMessageAttendees, usePreviewMessage } from '../api/attendees';

/**
 * Where the dialog is: closed; writing; looking at the mail as a fan gets it (the server's rendering of
 * the message, and how many fans it goes to); confirming the send of that very message. Going back keeps
 * what was written.
 */
type Previewed = { message: AttendeeMessageRequest; preview: AttendeeMessagePreview };
type Step =
  | { name: 'closed' }
  | { name: 'writing' }
  | ({ name: 'previewing' } & Previewed)
  | ({ name: 'confirming' } & Previewed);

type Action = { type: 'open' | 'edit' | 'close' | 'confirm' | 'back' } | ({ type: 'previewed' } & Previewed);

function step(current: Step, action: Action): Step {
  switch (action.type) {
    case 'open':
    case 'edit':
      return { name: 'writing' };
    case 'close':
      return { name: 'closed' };
    case 'previewed':
      return { name: 'previewing', message: action.message, preview: action.preview };
    case 'confirm':
      return current.name === 'previewing' ? { ...current, name: 'confirming' } : current;
    case 'back':
      return current.name === 'confirming' ? { ...current, name: 'previewing' } : current;
  }
}

const fans = (count: number) => counted(count, 'fan');

/**
 * "Message attendees": the creator writes a subject and a message, sees the mail their fans will get,
 * confirms to how many it goes, and it is sent; a toast says so.
 */
export function MessageAttendees({ eventId, eventName }: { eventId: string; eventName: string }) {
  const [current, dispatch] = useReducer(step, { name: 'closed' });
  const preview = usePreviewMessage(eventId);
  const send = useMessageAttendees(eventId);
  const form = useForm<AttendeeMessageRequest>({
    resolver: zodResolver(ZAttendeeMessageRequest),
    defaultValues: { subject: '', body: '' },
  });
  const {
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = form;
  const field = formFields(form);
  const fields = ['subject', 'body'] as const;

  const close = () => dispatch({ type: 'close' });
  const onPreview = handleSubmit(async (message) => {
    try {
      dispatch({ type: 'previewed', message, preview: await preview.mutateAsync(message) });
    } catch (error) {
      reportSubmitError(error, { setError, fields, fallback: 'The preview could not be made' });
    }
  });
  const onSend = async (message: AttendeeMessageRequest) => {
    try {
      const { recipients } = await send.mutateAsync(message);
      notify(`Message sent to ${fans(recipients)}.`, 'success');
      close();
      reset();
    } catch (error) {
      dispatch({ type: 'edit' });
      reportSubmitError(error, { setError, fields, fallback: 'The message could not be sent' });
    }
  };

  return (
    <>
      <Button onClick={() => dispatch({ type: 'open' })}>Message attendees</Button>
      <Modal
        open={current.name !== 'closed'}
        onClose={close}
        title="Message attendees"
        width={current.name === 'previewing' ? 'wide' : 'default'}
      >
        {current.name === 'writing' ? (
          <form onSubmit={onPreview} noValidate className="space-y-4">
            <p className="text-sm text-slate-600">
              Write to everyone with a ticket to {eventName}. Each fan gets it by email, with their own link
              to the show. You can send {MESSAGES_PER_EVENT_PER_HOUR} messages an hour about one event.
            </p>
            <Input
              label="Subject"
              maxLength={MESSAGE_SUBJECT_MAX_LENGTH}
              autoComplete="off"
              {...field('subject')}
            />
            <Textarea
              label="Message"
              rows={8}
              maxLength={MESSAGE_BODY_MAX_LENGTH}
              hint="Leave a blank line between paragraphs."
              {...field('body')}
            />
            <div className="flex justify-end gap-3">
              <Button variant="secondary" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? 'Preparing...' : 'Preview'}
              </Button>
            </div>
          </form>
        ) : current.name === 'previewing' ? (
          <div className="space-y-4">
            <p className="text-sm text-slate-600">
              This is the email your fans get (the show&apos;s time in each fan&apos;s own time zone).
            </p>
            <p className="text-sm">
              <span className="font-semibold text-slate-900">Subject:</span> {current.preview.subject}
            </p>
            <iframe
              title="The email"
              sandbox=""
              srcDoc={current.preview.html}
              className="h-[55dvh] w-full rounded-lg ring-1 ring-slate-200 sm:h-96"
            />
            {current.preview.recipients === 0 ? (
              <Notice>Nobody holds a ticket to this event yet: there is no one to send it to.</Notice>
            ) : null}
            <div className="flex justify-end gap-3">
              <Button variant="secondary" onClick={() => dispatch({ type: 'edit' })}>
                Edit
              </Button>
              <Button
                disabled={current.preview.recipients === 0}
                onClick={() => dispatch({ type: 'confirm' })}
              >
                Continue
              </Button>
            </div>
          </div>
        ) : current.name === 'confirming' ? (
          <div className="space-y-4">
            <p className="text-slate-700">
              Send &ldquo;{current.message.subject}&rdquo; to {fans(current.preview.recipients)}? It cannot be
              taken back once sent.
            </p>
            <div className="flex justify-end gap-3">
              <Button variant="secondary" onClick={() => dispatch({ type: 'back' })}>
                Back
              </Button>
              <Button disabled={send.isPending} onClick={() => void onSend(current.message)}>
                {send.isPending ? 'Sending...' : `Send to ${fans(current.preview.recipients)}`}
              </Button>
            </div>
          </div>
        ) : null}
      </Modal>
    </>
  );
}
