import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { baseURL, newVisitor, openApi, uniqueEmail } from './support/browser';
import { launchBrowser } from './support/chromium';
import { registerByApi } from './support/factories';
import { PASSWORD, expectToast, pathOf, person, register } from './support/fixtures';

let browser: Browser;
let api: APIRequestContext;
beforeAll(async () => {
  browser = await launchBrowser();
  api = await openApi();
});
afterAll(async () => {
  await api.dispose();
  await browser.close();
});

async function openAccountMenu(page: Page, firstName: string) {
  await page.getByRole('navigation').getByRole('button', { name: firstName }).click();
}

describe('accounts in the browser', () => {
  it('registers a creator, lands on the creator dashboard, and logs out to the home page', async () => {
    const { context, page } = await newVisitor(browser);
    await page.goto('/register');
    await page.getByLabel('First name').waitFor();
    await expectAccessible(page, 'creator registration');
    await register(page, { firstName: 'Ada', lastName: 'Stage', email: uniqueEmail('creator') });

    await page.waitForURL('**/creators/dashboard');
    await expectToast(page, 'Created and logged in successfully!');

    await openAccountMenu(page, 'Ada');
    const items = await page.getByRole('menuitem').allInnerTexts();
    expect(items.map((t) => t.trim())).toEqual([
      'Dashboard',
      'Create Event',
      'My Events',
      'Earnings',
      'My Profile',
      'Logout',
    ]);
    await page.getByRole('menuitem', { name: 'Logout' }).click();

    await page.waitForURL(`${baseURL()}/`);
    await expectToast(page, 'Logged out successfully');
    await expect(page.getByRole('link', { name: 'Create account' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Login', exact: true }).isVisible()).resolves.toBe(true);
    await expectAccessible(page, 'home');
    await context.close();
  });

  it('sends a logged-out visitor of a private route to /login with the full path as redirect', async () => {
    const { context, page } = await newVisitor(browser);
    await page.goto('/user/dashboard');
    await page.waitForURL('**/login?redirect=*');
    expect(await pathOf(page)).toBe('/login?redirect=%2Fuser%2Fdashboard');
    await page.getByLabel('Email').waitFor();
    await expectAccessible(page, 'creator login');
    await context.close();
  });

  it('registers a spectator, then logs in through /user/login?redirect=… and lands on the target', async () => {
    const email = uniqueEmail('fan');
    const { context, page } = await newVisitor(browser);
    await page.goto('/user/register');
    await page.getByLabel('First name').waitFor();
    await expectAccessible(page, 'spectator registration');
    await register(page, { firstName: 'Bea', lastName: 'Front', email });
    await page.waitForURL('**/user/dashboard');
    await expectToast(page, 'Account created and logged in successfully!');
    await page.getByText(email).first().waitFor();
    await expectAccessible(page, 'spectator dashboard');

    await openAccountMenu(page, 'Bea');
    const items = await page.getByRole('menuitem').allInnerTexts();
    expect(items.map((t) => t.trim())).toEqual(['Dashboard', 'My Tickets', 'Profile', 'Logout']);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${baseURL()}/`);

    await page.goto('/user/dashboard/profile');
    await page.waitForURL('**/login?redirect=*');
    expect(await pathOf(page)).toBe('/login?redirect=%2Fuser%2Fdashboard%2Fprofile');

    await page.goto('/user/login?redirect=%2Fuser%2Fdashboard%2Fprofile');
    await page.getByLabel('Email').waitFor();
    await expectAccessible(page, 'spectator login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/user/dashboard/profile');
    await expectToast(page, 'Welcome!');
    await context.close();
  });

  it('edits a profile: nickname rules are shown next to the field, success goes to the dashboard', async () => {
    const takenNickname = (await registerByApi(api, 'user', person('Taken', 'Name'))).user.nickname;

    const { context, page } = await newVisitor(browser, {
      signedInAs: await registerByApi(api, 'user', person('Cy', 'Editor')),
    });
    await page.goto('/user/dashboard');

    await page.getByRole('link', { name: 'Edit Profile' }).click();
    await page.waitForURL('**/user/dashboard/profile');
    const nickname = page.getByLabel('Nickname');
    const nicknameError = page.locator('#nickname-error');

    await nickname.fill('not valid!');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await nicknameError.waitFor();
    expect(await nicknameError.innerText()).toBe(
      'Only letters, numbers, hyphens (-) and underscores (_). Max 32 characters.',
    );
    expect(await nickname.getAttribute('aria-describedby')).toContain('nickname-error');
    await expectAccessible(page, 'profile, with a field error');

    await nickname.fill(takenNickname);
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByText('This nickname is already taken').waitFor();
    expect(await nicknameError.innerText()).toBe('This nickname is already taken');

    await nickname.fill('cy_the-editor');
    await page.getByLabel('First name').fill('Cyrus');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.waitForURL('**/user/dashboard');
    await expectToast(page, 'Profile updated successfully!');
    await expect(
      page.getByRole('navigation').getByRole('button', { name: 'Cyrus' }).isVisible(),
    ).resolves.toBe(true);
    await context.close();
  });
});
