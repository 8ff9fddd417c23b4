import type { Role } from '@stagedoor/shared/accounts';
import type { Deps } from '../deps';
import { hasCode } from '../errors';
import { countAccounts, findAccountById } from '../modules/accounts/accounts.repo';
import { registerAccount } from '../modules/accounts/auth.service';
import { forgetQueuedMail } from '../modules/mail/outbox';
import { updateProfile } from '../modules/accounts/profile.service';
import { updateEventChecked } from '../modules/events/events.repo';
import { createEvent } from '../modules/events/events.service';
import { EVENT_IMAGE_MESSAGES, PROFILE_IMAGE_MESSAGES } from '@stagedoor/shared/images';
import { cancelEvent } from '../modules/money/cancellation';
import { runSettlement } from '../modules/money/settlement';
import type { AccountRow } from './schema';
import { avatarImage, headerImage, posterImage, type Palette } from './demo-images';

export const DEMO_PASSWORD = 'stagedoor-demo';

interface DemoAccount {
  role: Role;
  firstName: string;
  lastName: string;
  email: string;
  biography?: string;
  palette?: Palette;
}

const MAYA = 'maya@demo.stagedoor.test';
const LEO = 'leo@demo.stagedoor.test';
const SAM = 'sam@demo.stagedoor.test';
const ANA = 'ana@demo.stagedoor.test';

const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    role: 'creator',
    firstName: 'Maya',
    lastName: 'Rivers',
    email: MAYA,
    biography: 'Singer-songwriter. Intimate acoustic sets streamed from my living room, every month.',
    palette: ['#7c3aed', '#db2777'],
  },
  {
    role: 'creator',
    firstName: 'Leo',
    lastName: 'Park',
    email: LEO,
    biography: 'Stand-up comedian and improv teacher. Live shows with the chat as my co-writer.',
    palette: ['#ea580c', '#facc15'],
  },
  { role: 'user', firstName: 'Sam', lastName: 'Taylor', email: SAM },
  { role: 'user', firstName: 'Ana', lastName: 'Silva', email: ANA },
];

interface DemoEvent {
  creator: string;
  name: string;
  description: string;
  price: number;
  maxTickets: number;
  /** Days from the seeding day, at `hour` o'clock UTC. */
  inDays: number;
  hour: number;
  palette: Palette;
  isActive?: boolean;
  /** Tickets the demo spectators buy: [email, quantity]. */
  sales?: [string, number][];
  /** A show that already happened: sold while upcoming, then moved this many days into the past. */
  heldDaysAgo?: number;
  /** Cancelled by its creator after its sales: every buyer refunded. */
  cancelled?: boolean;
}

const DEMO_EVENTS: DemoEvent[] = [
  {
    creator: MAYA,
    name: 'Living Room Sessions: Vol. 4',
    description:
      'An hour of new songs and old favourites, played on the couch where they were written. Requests welcome in the chat.',
    price: 12,
    maxTickets: 120,
    inDays: 3,
    hour: 19,
    palette: ['#7c3aed', '#db2777'],
    sales: [
      [SAM, 2],
      [ANA, 1],
    ],
  },
  {
    creator: LEO,
    name: 'Improv Night: You Write the Jokes',
    description:
      'Leo and two guests build a show out of your suggestions. Type a word, watch it become a scene.',
    price: 10,
    maxTickets: 200,
    inDays: 5,
    hour: 21,
    palette: ['#ea580c', '#facc15'],
    sales: [[SAM, 3]],
  },
  {
    creator: LEO,
    name: 'Late Show Live: Chat Takes Over',
    description:
      'A talk show where the audience books the guests, picks the questions and writes the monologue.',
    price: 7.99,
    maxTickets: 150,
    inDays: 7,
    hour: 22,
    palette: ['#0f766e', '#22d3ee'],
  },
  {
    creator: MAYA,
    name: 'Songs for Rainy Sundays',
    description: 'Slow songs, warm tea, a window full of rain. A quiet afternoon set for 60 listeners.',
    price: 8.5,
    maxTickets: 60,
    inDays: 10,
    hour: 15,
    palette: ['#1e3a8a', '#60a5fa'],
    sales: [[ANA, 4]],
  },
  {
    creator: LEO,
    name: 'Stand-up Workshop for Beginners',
    description:
      'Two hours on writing your first five minutes: premise, act-outs, tags. Small group, live feedback.',
    price: 25,
    maxTickets: 20,
    inDays: 14,
    hour: 18,
    palette: ['#9f1239', '#fb7185'],
    sales: [
      [ANA, 2],
      [SAM, 1],
    ],
  },
  {
    creator: MAYA,
    name: 'New Album Listening Party + Q&A',
    description:
      'The whole record, start to finish, with the stories behind each track and your questions after.',
    price: 5,
    maxTickets: 300,
    inDays: 24,
    hour: 20,
    palette: ['#166534', '#a3e635'],
  },
  {
    creator: MAYA,
    name: 'Winter Solstice Concert',
    description: 'Postponed while the string quartet finds a new date. Tickets go on sale again soon.',
    price: 15,
    maxTickets: 80,
    inDays: 40,
    hour: 19,
    palette: ['#334155', '#94a3b8'],
    isActive: false,
  },
  {
    creator: LEO,
    name: 'Crowd Work Marathon',
    description:
      'Three hours, no script, a thousand opinions in the chat. It happened; some of it was funny.',
    price: 6,
    maxTickets: 100,
    inDays: 1,
    hour: 21,
    palette: ['#4c1d95', '#c084fc'],
    sales: [[SAM, 2]],
    heldDaysAgo: 12,
  },
  {
    creator: MAYA,
    name: 'Porch Songs: Summer Recordings',
    description: 'The summer record played live from the porch, crickets included.',
    price: 9,
    maxTickets: 80,
    inDays: 1,
    hour: 20,
    palette: ['#b45309', '#fde047'],
    sales: [
      [SAM, 2],
      [ANA, 1],
    ],
    heldDaysAgo: 6,
  },
  {
    creator: MAYA,
    name: 'Acoustic Brunch',
    description: 'Cancelled: the venue flooded. Every ticket was refunded in full.',
    price: 10,
    maxTickets: 40,
    inDays: 20,
    hour: 11,
    palette: ['#475569', '#f472b6'],
    sales: [[ANA, 1]],
    cancelled: true,
  },
];

const DAY_MS = 24 * 60 * 60 * 1000;

export interface DemoLogin {
  role: Role;
  email: string;
  password: string;
  nickname: string;
}

/**
 * Fills an empty database with a believable storefront: demo creators with pictures and events,
 * spectators holding tickets bought through the real purchase, an inactive event, past events whose
 * earnings the settlement job has released (a payout due, a reserve held) and a cancelled one. Returns
 * the logins; returns null, changing nothing, when there are accounts already (or another instance is
 * seeding at the same moment).
 */
export async function seedDemoData(deps: Deps): Promise<DemoLogin[] | null> {
  if ((await countAccounts(deps.db)) > 0) return null;
  const logins: DemoLogin[] = [];
  const accounts = new Map<string, AccountRow>();
  try {
    for (const demo of DEMO_ACCOUNTS) {
      const { user } = await registerAccount(deps, demo.role, { ...demo, password: DEMO_PASSWORD });
      const account = await findAccountById(deps.db, user.id);
      if (!account) throw new Error(`demo account ${demo.email} vanished`);
      if (demo.role === 'creator') await dressCreator(deps, account, demo);
      accounts.set(demo.email, account);
      logins.push({ role: demo.role, email: user.email, password: DEMO_PASSWORD, nickname: user.nickname });
    }
  } catch (error) {
    if (hasCode('CONFLICT')(error)) return null;
    throw error;
  }
  for (const event of DEMO_EVENTS) await seedEvent(deps, accounts, event);
  await runSettlement(deps, new Date());
  // The demo goes through the real registration and purchase, which queue mail: none of it is sent.
  await forgetQueuedMail(deps.db);
  return logins;
}

/** Biography, header and profile image, through the same service as the profile form. */
async function dressCreator(deps: Deps, account: AccountRow, demo: DemoAccount): Promise<void> {
  const palette = demo.palette ?? ['#334155', '#64748b'];
  const initials = `${demo.firstName[0] ?? ''}${demo.lastName[0] ?? ''}`;
  await updateProfile(
    deps,
    account,
    { biography: demo.biography },
    {
      slot: 'headerImage',
      upload: { field: 'headerImageUrl', data: await headerImage(palette), kind: PROFILE_IMAGE_MESSAGES },
    },
  );
  await updateProfile(
    deps,
    account,
    {},
    {
      slot: 'profileImage',
      upload: {
        field: 'profileImageUrl',
        data: await avatarImage(initials, palette),
        kind: PROFILE_IMAGE_MESSAGES,
      },
    },
  );
}

async function seedEvent(deps: Deps, accounts: Map<string, AccountRow>, demo: DemoEvent): Promise<void> {
  const creator = demoAccount(accounts, demo.creator);
  const day = new Date();
  day.setUTCHours(demo.hour, 0, 0, 0);
  const poster = await posterImage(
    demo.name,
    `${creator.firstName} ${creator.lastName} · live on Stagedoor`,
    demo.palette,
  );
  const event = await createEvent(
    deps,
    creator,
    {
      name: demo.name,
      description: demo.description,
      price: demo.price,
      maxTickets: demo.maxTickets,
      date: new Date(day.getTime() + demo.inDays * DAY_MS).toISOString(),
      isActive: demo.isActive ?? true,
      replayEnabled: true,
    },
    { field: 'image', data: poster, kind: EVENT_IMAGE_MESSAGES },
  );
  for (const [email, quantity] of demo.sales ?? []) {
    // Demo sales complete at once, whatever the payment provider: no demo fan has a card.
    const buyer = demoAccount(accounts, email);
    const purchase = {
      accountId: buyer.id,
      eventId: event.id,
      ticketTypeId: null,
      quantity,
      unitPriceCents: null,
      amountCents: null,
      promoCode: null,
    };
    const placed = await deps.placeOrder(
      deps.db,
      { ...purchase, idempotencyKey: null, requestHash: null },
      { now: new Date(), holdUntil: null },
    );
    if (!placed) throw new Error(`demo sale of ${demo.name} to ${email} refused`);
  }
  if (demo.heldDaysAgo) {
    const heldOn = new Date(day.getTime() - demo.heldDaysAgo * DAY_MS);
    // Only its date changes: no tickets come back.
    await updateEventChecked(
      deps.db,
      event.id,
      () => ({ changes: { date: heldOn } }),
      async () => {},
    );
  }
  if (demo.cancelled) await cancelEvent(deps, creator, event.id, new Date());
}

function demoAccount(accounts: Map<string, AccountRow>, email: string): AccountRow {
  const account = accounts.get(email);
  if (!account) throw new Error(`no demo account ${email}`);
  return account;
}

export function formatDemoLogins(logins: DemoLogin[]): string {
  const lines = logins.map(
    (login) =>
      `  ${login.role.padEnd(9)}${login.email.padEnd(28)}${login.password}   ` +
      (login.role === 'creator'
        ? `log in at /login, page /creator/${login.nickname}`
        : 'log in at /user/login'),
  );
  return ['Demo accounts (SEED_DEMO=0 to start empty):', ...lines].join('\n');
}
