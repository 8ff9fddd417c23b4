import { BRAND_NAME, SUPPORT_EMAIL } from '../../../config/site';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { LegalList, LegalPage, type LegalSection } from '../components/legal-page';

const sections: LegalSection[] = [
  {
    title: 'Information we collect',
    body: (
      <LegalList
        items={[
          <>
            <strong>Account information:</strong> your first and last name, email address, nickname and
            password (stored only as a secure hash). Creators may also add a biography, a header image and a
            profile image.
          </>,
          <>
            <strong>Purchases:</strong> the events you buy tickets for, the quantity and the amount paid. Card
            and account details are handled by our payment processors; we never store full card numbers.
          </>,
          <>
            <strong>Live events:</strong> the messages you send in an event&apos;s chat, with your name,
            avatar and the time they were sent. Video and audio travel directly between the creator and
            viewers and are not recorded by us.
          </>,
          <>
            <strong>Technical data:</strong> IP address, browser type and request logs, which we use to run
            and secure the service.
          </>,
        ]}
      />
    ),
  },
  {
    title: 'How we use your information',
    body: (
      <LegalList
        items={[
          'To create and secure your account and keep you signed in.',
          'To sell and deliver tickets, process payments, payouts and refunds.',
          'To run live streams and their chats.',
          'To answer your support requests and send you messages about your account and events.',
          'To detect and prevent fraud, abuse and security incidents.',
          'To meet our legal and tax obligations.',
        ]}
      />
    ),
  },
  {
    title: 'What others can see',
    body: (
      <p>
        A creator&apos;s name, nickname, biography, images and published events are public. In an event&apos;s
        chat, other participants see your name, avatar and messages. We do not show your email address to
        other users.
      </p>
    ),
  },
  {
    title: 'Sharing',
    body: (
      <p>
        We do not sell your personal information. We share it only with service providers that help us run{' '}
        {BRAND_NAME} (hosting, payment processing, email), under contracts that limit their use of it to that
        purpose, and with authorities when the law requires it.
      </p>
    ),
  },
  {
    title: 'Local storage',
    body: (
      <p>
        To keep you signed in, your browser stores a session token and your basic profile in its local
        storage. Logging out removes them. We do not use advertising cookies.
      </p>
    ),
  },
  {
    title: 'Retention',
    body: (
      <p>
        We keep your account information for as long as your account is open. Purchase and payout records are
        kept for as long as tax and accounting law requires. Technical logs are deleted after a short period
        unless they are needed to investigate an incident.
      </p>
    ),
  },
  {
    title: 'Security',
    body: (
      <p>
        Passwords are stored as strong one-way hashes, traffic is encrypted in transit and uploaded images are
        re-encoded with their metadata removed. When you change your password, every other session of your
        account is signed out.
      </p>
    ),
  },
  {
    title: 'Your rights',
    body: (
      <p>
        You may ask to access, correct, export or delete your personal information, and you may object to some
        uses of it. You can update most of your details yourself on your profile page. For anything else,
        contact us as shown below.
      </p>
    ),
  },
  {
    title: 'Age requirement',
    body: (
      <p>
        {BRAND_NAME} is only for people who are at least 18 years old. We do not knowingly collect information
        from anyone younger; if we learn we have, we delete it.
      </p>
    ),
  },
  {
    title: 'Changes to this policy',
    body: (
      <p>
        We may update this Privacy Policy. When a change is material we will tell you by email or on the
        platform before it takes effect.
      </p>
    ),
  },
  {
    title: 'Contact',
    body: (
      <p>
        Send privacy questions and requests to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className="font-semibold text-brand-700 hover:text-brand-600">
          {SUPPORT_EMAIL}
        </a>
        . Our support team responds in under 24 hours.
      </p>
    ),
  },
];

export function PrivacyPolicyRoute() {
  useDocumentTitle('Privacy Policy');
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <p>
          This Privacy Policy explains what personal information {BRAND_NAME} collects when you use the
          platform, why we collect it, and the choices you have.
        </p>
      }
      sections={sections}
    />
  );
}
