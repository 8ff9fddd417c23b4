import { BRAND_NAME, SUPPORT_EMAIL } from '../../../config/site';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { LegalList, LegalPage, type LegalSection } from '../components/legal-page';

const sections: LegalSection[] = [
  {
    title: 'Who may use the platform',
    body: (
      <p>
        You must be at least 18 years old to create an account, sell tickets or buy tickets. By registering
        you confirm that you are 18 or older and that you can enter into a binding contract under the laws
        that apply to you.
      </p>
    ),
  },
  {
    title: 'Accounts',
    body: (
      <>
        <p>
          {BRAND_NAME} has two kinds of accounts: creators, who publish and stream live events, and
          spectators, who buy tickets and watch. You must give accurate information, keep your password secret
          and tell us at once if you believe someone else has used your account. You are responsible for
          everything done through your account.
        </p>
        <p>
          We may suspend or close an account that breaks these Terms, that is used for fraud, or that puts
          other users or the platform at risk.
        </p>
      </>
    ),
  },
  {
    title: 'Events and content',
    body: (
      <>
        <p>
          Creators decide what their events are about, when they take place, how many tickets they offer and
          at what price. A creator is solely responsible for the event, for the content streamed and for
          holding every right and licence that content needs.
        </p>
        <p>
          Creators keep ownership of their content. By streaming on {BRAND_NAME} a creator grants us a
          worldwide, non-exclusive, royalty-free licence to host, transmit and display that content to the
          event&apos;s ticket holders, solely to operate the service.
        </p>
        <p>
          You may not stream or post content that is illegal, infringes the rights of others, is sexually
          explicit involving minors, promotes violence or hatred, or deceives ticket buyers about what they
          will receive. Spectators may not record, copy or redistribute a stream without the creator&apos;s
          consent.
        </p>
      </>
    ),
  },
  {
    title: 'Tickets',
    body: (
      <p>
        A ticket gives its holder a personal, non-transferable right to watch the live stream of one event and
        take part in its chat. Ticket prices are set by the creator and shown in US dollars before you pay.
        Your purchase is a contract between you and the creator; {BRAND_NAME} acts as the creator&apos;s
        platform and collects payment on the creator&apos;s behalf.
      </p>
    ),
  },
  {
    title: 'Fees',
    body: (
      <>
        <p>For each ticket sold, the following amounts are deducted from the creator&apos;s revenue:</p>
        <LegalList
          items={[
            <>
              <strong>Platform fee:</strong> 10% of the gross ticket price.
            </>,
            <>
              <strong>Payment processing fees</strong>, charged by the payment processor and passed on at
              cost: 2.9% + US$0.30 per transaction for card payments, or 3.49% + a fixed fee per transaction
              for payments made through our other payment provider.
            </>,
          ]}
        />
        <p>Founding partners pay no platform fee on their first event, as described on the Founders page.</p>
      </>
    ),
  },
  {
    title: 'Payouts and reserves',
    body: (
      <>
        <p>
          A creator becomes eligible for payout of an event&apos;s ticket revenue, net of fees, 24 hours after
          the event ends. The delay lets us handle refund requests about the event before money is paid out.
        </p>
        <p>
          For creators with fewer than 3 completed events, we may hold a reserve of up to 2% of the
          event&apos;s ticket revenue to cover refunds and disputes. Any reserve not used for that purpose is
          released 30 days after the event.
        </p>
      </>
    ),
  },
  {
    title: 'Cancellations and refunds',
    body: (
      <LegalList
        items={[
          <>
            If a creator cancels an event at least 24 hours before it starts, every ticket holder receives a
            full refund and the creator owes no penalty.
          </>,
          <>
            If a creator cancels an event less than 24 hours before it starts, every ticket holder receives a
            full refund and the creator is charged a penalty of 5% of the event&apos;s gross ticket sales.
          </>,
          <>
            If a failure of the platform interrupts a live event for 10 minutes or more, the affected ticket
            holders are refunded in full. Problems with a creator&apos;s own equipment or connection, or with
            a spectator&apos;s, do not count as a platform failure.
          </>,
          <>
            Apart from the cases above, tickets are not refundable unless the law that applies to you says
            otherwise.
          </>,
        ]}
      />
    ),
  },
  {
    title: 'Chargebacks and disputes',
    body: (
      <p>
        When a ticket buyer disputes a payment with their bank or card issuer, we respond to the dispute on
        the creator&apos;s behalf. A dispute fee of US$15 is charged to the creator for each dispute about
        their event, whatever its outcome, together with the disputed amount if the dispute is lost.
      </p>
    ),
  },
  {
    title: 'Availability of the service',
    body: (
      <p>
        We work to keep {BRAND_NAME} available and reliable, but we provide it &quot;as is&quot; and &quot;as
        available&quot;. To the fullest extent the law allows, we make no promise that the service will be
        uninterrupted or error-free, beyond the refund for platform failures set out above.
      </p>
    ),
  },
  {
    title: 'Limitation of liability',
    body: (
      <p>
        To the fullest extent the law allows, {BRAND_NAME} is not liable for indirect, incidental or
        consequential damages, or for lost profits or revenue. Our total liability for any claim about the
        service is limited to the platform fees you paid us in the 12 months before the event that gave rise
        to the claim. Nothing in these Terms limits liability that cannot be limited by law.
      </p>
    ),
  },
  {
    title: 'Changes to these Terms',
    body: (
      <p>
        We may update these Terms. When a change is material we will tell you by email or on the platform
        before it takes effect. If you keep using {BRAND_NAME} after the change takes effect, you accept the
        updated Terms.
      </p>
    ),
  },
  {
    title: 'Contact and support',
    body: (
      <p>
        Questions about these Terms, refunds or payouts can be sent to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className="font-semibold text-brand-700 hover:text-brand-600">
          {SUPPORT_EMAIL}
        </a>
        . Our support team responds in under 24 hours.
      </p>
    ),
  },
];

export function TermsRoute() {
  useDocumentTitle('Terms of Service');
  return (
    <LegalPage
      title="Terms of Service"
      intro={
        <p>
          These Terms of Service govern your use of {BRAND_NAME}, the platform where creators sell tickets to
          live online events and stream them, and where spectators buy those tickets and watch. By creating an
          account or buying a ticket you agree to these Terms.
        </p>
      }
      sections={sections}
    />
  );
}
