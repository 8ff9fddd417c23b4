import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EventSearchForm } from './event-search-form';

describe('event search form', () => {
  // Folding happens below `sm` only, by CSS that jsdom does not apply: this checks the toggle's contract.
  it("keeps the filters behind a 'Filters' toggle that counts the active ones", async () => {
    const user = userEvent.setup();
    render(
      <EventSearchForm
        search={{ q: 'jazz', from: '2030-06-01', to: '', maxPrice: '20' }}
        onSearch={vi.fn()}
      />,
    );

    const toggle = screen.getByRole('button', { name: 'Filters 2 active' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const filters = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(filters).not.toBeNull();
    const panel = within(filters as HTMLElement);
    expect(panel.getByLabelText('From')).toHaveValue('2030-06-01');
    expect(panel.getByLabelText('To')).toHaveValue('');
    expect(panel.getByLabelText('Maximum price ($)')).toHaveValue(20);
    // The words stay outside, on the first screen.
    expect(panel.queryByRole('searchbox', { name: 'Search' })).not.toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('jazz');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.type(panel.getByLabelText('To'), '2030-06-30');
    expect(toggle).toHaveAccessibleName('Filters 3 active');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it("names the toggle 'Filters' alone while no filter is set", () => {
    render(<EventSearchForm search={{ q: '', from: '', to: '', maxPrice: '' }} onSearch={vi.fn()} />);

    expect(screen.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'false');
  });
});
