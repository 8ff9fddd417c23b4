import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/database';
import type { ImageStore } from './modules/images/image-store';
import type { SendMail } from './modules/mail/transport';
import type { CardPayments } from './modules/payments/payments';
import type { PlaceOrder } from './modules/orders/order-lifecycle';
import type { GiveOrder } from './modules/orders/orders.repo';
import type { ClaimReplay } from './modules/replays/replays.repo';

/** What services need from the running server; routes pass `app.deps`. */
export interface Deps {
  config: Config;
  db: Database;
  images: ImageStore;
  log: FastifyBaseLogger;
  /** orders.repo.ts placeOrder, unless a test replaced it through TestSeams (app.ts). */
  placeOrder: PlaceOrder;
  /** orders.repo.ts giveOrder, unless a test replaced it through TestSeams (app.ts). */
  giveOrder: GiveOrder;
  /**
   * Tickets an event's edit freed go to its waitlist first, in the edit's transaction (order-lifecycle.ts
   * offerTicketsBack): handed to the events module here, which knows nothing of orders.
   */
  offerTicketsBack: (tx: Database, eventId: number, now: Date) => Promise<void>;
  /** replays.repo.ts claimDueReplay, unless a test replaced it through TestSeams (app.ts). */
  claimReplay: ClaimReplay;
  /** The card payment provider; null with PAYMENT_PROVIDER=none (orders complete at once). */
  payments: CardPayments | null;
  /** SMTP (SMTP_URL) or .eml files in DATA_DIR/outbox. */
  sendMail: SendMail;
}
