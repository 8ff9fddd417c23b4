import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCreator, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const SENT = 'If an account has this email, a link to choose a new password is on its way.';

describe('forgotten password', () => {
  it('is offered on both login pages and mails a link, saying the same whatever the email', async () => {
    const calls = stubApi({ 'POST /auth/forgot-password': { status: 202, body: { message: SENT } } });
    const { user, location } = renderApp('/login');
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(location()).toBe('/forgot-password');
    await screen.findByRole('heading', { name: 'Forgot password?' });

    await user.type(screen.getByLabelText('Email'), 'maya@example.com');
    await user.click(screen.getByRole('button', { name: 'Send link' }));

    expect(await screen.findByText(SENT)).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ email: 'maya@example.com' });
    renderApp('/user/login');
    expect(await screen.findAllByRole('link', { name: 'Forgot password?' })).not.toHaveLength(0);
  });

  it('sets a new password from the link and signs the account in', async () => {
    const calls = stubApi({
      'POST /auth/reset-password/check': { status: 204 },
      'POST /auth/reset-password': { body: { access_token: 'fresh', user: aCreator() } },
    });
    const { user, location } = renderApp('/reset-password?token=abc123');
    await user.type(await screen.findByLabelText('New password'), 'a-brand-new-password');
    await user.type(screen.getByLabelText('Confirm new password'), 'a-brand-new-pasword');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleErrorMessage(
      'New passwords do not match',
    );
    expect(calls.map((call) => call.path)).toEqual(['/auth/reset-password/check']);

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'a-brand-new-password');
    await user.click(screen.getByRole('button', { name: 'Save password' }));

    expect(await screen.findByText('Password updated successfully!')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ token: 'abc123' });
    expect(calls[1]?.body).toEqual({ token: 'abc123', password: 'a-brand-new-password' });
    expect(location()).toBe('/creators/dashboard');
    expect(localStorage.getItem('token')).toBe('fresh');
  });

  it('says a used or expired link fails before asking for a password, and offers a new one', async () => {
    const message = 'This reset link is invalid or has expired. Ask for a new one.';
    const refused = {
      status: 400,
      body: { statusCode: 400, code: 'VALIDATION_FAILED', message, fields: { token: message } },
    };
    const calls = stubApi({
      'POST /auth/reset-password/check': refused,
      'POST /auth/reset-password': refused,
    });
    renderApp('/reset-password?token=used');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(calls.map((call) => call.path)).toEqual(['/auth/reset-password/check']);
    expect(screen.getByRole('link', { name: 'Ask for a new one' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });
});
