import type { Role } from '@stagedoor/shared/auth';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { countAccounts, updateAccount } from '../modules/auth/accounts.repo';
import { registerAccount } from '../modules/auth/auth.service';

export const DEMO_PASSWORD = 'stagedoor-demo';

interface DemoAccount {
  role: Role;
  firstName: string;
  lastName: string;
  email: string;
  biography?: string;
}

const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    role: 'creator',
    firstName: 'Maya',
    lastName: 'Rivers',
    email: 'maya@demo.stagedoor.test',
    biography: 'Singer-songwriter. Intimate acoustic sets streamed from my living room, every month.',
  },
  {
    role: 'creator',
    firstName: 'Leo',
    lastName: 'Park',
    email: 'leo@demo.stagedoor.test',
    biography: 'Stand-up comedian and improv teacher. Live shows with the chat as my co-writer.',
  },
  { role: 'user', firstName: 'Sam', lastName: 'Taylor', email: 'sam@demo.stagedoor.test' },
  { role: 'user', firstName: 'Ana', lastName: 'Silva', email: 'ana@demo.stagedoor.test' },
];

export interface DemoLogin {
  role: Role;
  email: string;
  password: string;
  nickname: string;
}

/**
 * Fills an empty database with demo accounts and returns their logins; returns null, changing nothing,
 * when there are accounts already (or another instance is seeding at the same moment).
 */
export async function seedDemoData(deps: Deps): Promise<DemoLogin[] | null> {
  if ((await countAccounts(deps.db)) > 0) return null;
  const logins: DemoLogin[] = [];
  try {
    for (const demo of DEMO_ACCOUNTS) {
      const { user } = await registerAccount(deps, demo.role, { ...demo, password: DEMO_PASSWORD });
      if (demo.biography) await updateAccount(deps.db, user.id, { biography: demo.biography });
      logins.push({ role: demo.role, email: user.email, password: DEMO_PASSWORD, nickname: user.nickname });
    }
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT') return null;
    throw error;
  }
  return logins;
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
